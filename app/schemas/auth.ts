import { z } from './zod';

export const LoginSchema = z.object({
  username: z
    .string({ error: 'Username is required' })
    .trim()
    .min(1, 'Username is required')
    .max(100, 'Username is too long'),
  password: z
    .string({ error: 'Password is required' })
    .min(1, 'Password is required')
    .max(200, 'Password is too long'),
});
export type LoginInput = z.infer<typeof LoginSchema>;

/** The staff login page: the credentials, and where to go once signed in. */
export const LoginFormSchema = LoginSchema.extend({ redirectTo: z.string().optional() });

/** The Logout button: no fields. */
export const LogoutSchema = z.object({});
