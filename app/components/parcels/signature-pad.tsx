import { useEffect, useRef, useState } from 'react';
import type SignaturePadType from 'signature_pad';

/**
 * The drawn signature of a proof of delivery, with JavaScript: a canvas drawn on with
 * signature_pad, whose PNG goes into the form as the `signature` file (a hidden file input filled
 * through DataTransfer), so the server receives it exactly as an API client's upload. Without
 * JavaScript this renders nothing and the typed name stands for the signature.
 */
/**
 * signature_pad, fetched once: the courier's run asks for it as soon as it is interactive, so that
 * a proof taken offline can still be signed.
 */
export function loadSignaturePad() {
  return import('signature_pad');
}

export function SignaturePadField({ name, errors }: { name: string; errors?: string[] }) {
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const inputRef = useRef<HTMLInputElement>(null);
  const padRef = useRef<SignaturePadType | null>(null);
  const [signed, setSigned] = useState(false);

  useEffect(() => {
    let cancelled = false;
    const canvas = canvasRef.current;
    if (!canvas) return;
    void loadSignaturePad().then(({ default: SignaturePad }) => {
      if (cancelled) return;
      // Drawn at the screen's pixel density, so the PNG is sharp.
      const ratio = Math.max(window.devicePixelRatio || 1, 1);
      canvas.width = canvas.offsetWidth * ratio;
      canvas.height = canvas.offsetHeight * ratio;
      canvas.getContext('2d')?.scale(ratio, ratio);
      const pad = new SignaturePad(canvas, { backgroundColor: 'rgb(255,255,255)' });
      pad.addEventListener('endStroke', () => {
        canvas.toBlob((blob) => {
          const input = inputRef.current;
          if (!blob || !input) return;
          const transfer = new DataTransfer();
          transfer.items.add(new File([blob], 'signature.png', { type: 'image/png' }));
          input.files = transfer.files;
          setSigned(true);
        }, 'image/png');
      });
      padRef.current = pad;
    });
    return () => {
      cancelled = true;
      padRef.current?.off();
    };
  }, []);

  const clear = () => {
    padRef.current?.clear();
    if (inputRef.current) inputRef.current.value = '';
    setSigned(false);
  };

  return (
    <div>
      <p id="signature-pad-label" className="field-label">
        Signature
      </p>
      <canvas
        ref={canvasRef}
        role="img"
        aria-labelledby="signature-pad-label"
        aria-describedby="signature-pad-hint"
        data-signed={signed ? 'true' : 'false'}
        className="h-36 w-full touch-none rounded-md border border-gray-300 bg-white"
      />
      <input ref={inputRef} type="file" name={name} accept="image/png" hidden tabIndex={-1} />
      <div className="mt-1 flex items-center justify-between gap-2">
        <p id="signature-pad-hint" className="text-xs text-gray-500">
          {signed ? 'Signed.' : 'The recipient signs here with a finger or the mouse.'}
        </p>
        <button type="button" className="btn-secondary" onClick={clear} disabled={!signed}>
          Clear signature
        </button>
      </div>
      {errors?.length ? (
        <ul className="field-error">
          {errors.map((e) => (
            <li key={e}>{e}</li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
