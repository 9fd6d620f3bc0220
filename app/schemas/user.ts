import { USER_ROLES } from './roles';
import { z } from './zod';

export { hasRole, USER_ROLES, type UserRole } from './roles';

export const PASSWORD_MIN_LENGTH = 8;
const PASSWORD_MAX_LENGTH = 200;

const password = z
  .string({ error: 'Password is required' })
  .min(PASSWORD_MIN_LENGTH, `Password must be at least ${PASSWORD_MIN_LENGTH} characters`)
  .max(PASSWORD_MAX_LENGTH, `Password must be at most ${PASSWORD_MAX_LENGTH} characters`);

const name = z.string({ error: 'Must be a string' }).trim().max(100, 'At most 100 characters');
const email = z
  .string({ error: 'Must be a string' })
  .trim()
  .max(254, 'At most 254 characters')
  .refine((value) => value === '' || z.email().safeParse(value).success, 'Invalid email address')
  .meta({
    anyOf: [{ const: '' }, { format: 'email' }],
    description: 'An e-mail address, or empty',
  });
const role = z.enum(USER_ROLES, { error: `Role must be one of: ${USER_ROLES.join(', ')}` });

/** A new user. Without a password the user gets a temporary one, shown once. */
export const UserCreateSchema = z.object({
  username: z
    .string({ error: 'Username is required' })
    .trim()
    .min(3, 'Username must be at least 3 characters')
    .max(50, 'Username must be at most 50 characters')
    .regex(/^[A-Za-z0-9._-]+$/, 'Use letters, digits, dots, dashes and underscores')
    .toLowerCase(),
  name: name.default(''),
  email: email.default(''),
  role: role.default('staff'),
  password: password.optional(),
});
export type UserCreateInput = z.output<typeof UserCreateSchema>;

/** Changes to a user: only the fields given. A password given here replaces the old one. */
export const UserUpdateSchema = z.object({
  name: name.optional(),
  email: email.optional(),
  role: role.optional(),
  password: password.optional(),
});
export type UserUpdateInput = z.output<typeof UserUpdateSchema>;

/** The admin's edit form: name, e-mail and role. */
export const UserEditFormSchema = z.object({
  intent: z.literal('update'),
  name: name.default(''),
  email: email.default(''),
  role,
});

const currentPassword = z
  .string({ error: 'Enter your current password' })
  .min(1, 'Enter your current password')
  .max(PASSWORD_MAX_LENGTH, `Password must be at most ${PASSWORD_MAX_LENGTH} characters`);
const differentPassword = {
  message: 'Choose a password different from the current one',
  path: ['newPassword'],
};

/** A user changing their own password. */
export const PasswordChangeSchema = z
  .object({
    currentPassword,
    newPassword: password,
    confirmPassword: z.string({ error: 'Repeat the new password' }),
  })
  .refine((value) => value.newPassword === value.confirmPassword, {
    message: 'The passwords do not match',
    path: ['confirmPassword'],
  })
  .refine((value) => value.newPassword !== value.currentPassword, differentPassword);

/** POST /api/auth/password: the same change through the API. */
export const PasswordChangeApiSchema = z
  .object({ currentPassword, newPassword: password })
  .refine((value) => value.newPassword !== value.currentPassword, differentPassword);

/** The account page's "Sign out everywhere" button. */
export const SignOutEverywhereSchema = z.object({ intent: z.literal('sign-out-everywhere') });
