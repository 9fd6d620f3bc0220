import type { Submission } from '@conform-to/react';
import { useEffect, useState } from 'react';
import type { z } from 'zod';

type Check<S extends z.ZodType> = (context: {
  formData: FormData;
}) => Submission<z.input<S>, string[], z.output<S>>;

/**
 * conform's check in the browser (its `onValidate`) for a form whose zod schema `load` imports:
 * zod, the largest part of a staff page's script, comes once the page is interactive instead of
 * with it. Until then, and without JavaScript, the server checks the form as it always does.
 */
export function useLazyValidation<S extends z.ZodType>(load: () => Promise<S>) {
  const [check, setCheck] = useState<Check<S> | undefined>(undefined);
  useEffect(() => {
    let live = true;
    void Promise.all([load(), import('@conform-to/zod/v4')]).then(([schema, { parseWithZod }]) => {
      const check: Check<S> = ({ formData }) => parseWithZod(formData, { schema: schema as S });
      if (live) setCheck(() => check);
    });
    return () => {
      live = false;
    };
    // The form's schema is the same for the page's life.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  return check;
}
