import { useEffect, useRef, useState } from 'react';

type Detector = { detect(source: HTMLVideoElement): Promise<Array<{ rawValue: string }>> };
type DetectorClass = {
  new (options: { formats: string[] }): Detector;
  getSupportedFormats?: () => Promise<string[]>;
};

/**
 * Reads a label's barcode with the phone's camera where the browser has BarcodeDetector (its own
 * decoder, so the page carries none); elsewhere it renders nothing and the field takes the number.
 */
export function CameraScan({ onCode }: { onCode: (code: string) => void }) {
  const [supported, setSupported] = useState(false);
  const [open, setOpen] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const video = useRef<HTMLVideoElement>(null);
  const onCodeRef = useRef(onCode);
  onCodeRef.current = onCode;

  useEffect(() => {
    setSupported('BarcodeDetector' in window && !!navigator.mediaDevices?.getUserMedia);
  }, []);

  useEffect(() => {
    if (!open) return;
    let stream: MediaStream | null = null;
    let timer: number | undefined;
    let stopped = false;
    const Barcode = (window as unknown as { BarcodeDetector: DetectorClass }).BarcodeDetector;
    (async () => {
      try {
        stream = await navigator.mediaDevices.getUserMedia({
          video: { facingMode: 'environment' },
        });
        if (stopped || !video.current) return;
        video.current.srcObject = stream;
        await video.current.play();
        const detector = new Barcode({ formats: ['code_128', 'qr_code'] });
        const look = async () => {
          if (stopped || !video.current) return;
          const [code] = await detector.detect(video.current).catch(() => []);
          if (code?.rawValue) {
            setOpen(false);
            onCodeRef.current(code.rawValue);
            return;
          }
          timer = window.setTimeout(look, 250);
        };
        void look();
      } catch {
        setProblem('The camera could not be opened. Type or scan the number instead.');
        setOpen(false);
      }
    })();
    return () => {
      stopped = true;
      window.clearTimeout(timer);
      stream?.getTracks().forEach((track) => track.stop());
    };
  }, [open]);

  if (!supported) return null;
  return (
    <div className="space-y-2">
      <button type="button" className="btn-secondary w-full" onClick={() => setOpen(!open)}>
        {open ? 'Stop camera' : 'Scan with camera'}
      </button>
      {open ? <video ref={video} className="w-full rounded-md bg-black" muted playsInline /> : null}
      {problem ? <p className="text-sm text-red-700">{problem}</p> : null}
    </div>
  );
}
