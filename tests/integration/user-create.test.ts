import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { User, verifyLogin } from '~/models/user.server';
import { connectDb } from '~/lib/db.server';
import { createUserFromInput, main, parseUserCreateArgs } from '../../scripts/user-create';

describe('user:create', () => {
  beforeAll(async () => {
    await connectDb();
  });

  afterEach(() => {
    delete process.env.USER_PASSWORD;
  });

  it('creates a user that can sign in, without keeping the plain password', async () => {
    const user = await createUserFromInput({
      username: 'Jane.Doe',
      role: 'staff',
      name: 'Jane Doe',
      email: 'jane@example.com',
      password: 'long-enough-1',
    });
    expect(user).toMatchObject({
      username: 'jane.doe',
      role: 'staff',
      name: 'Jane Doe',
      email: 'jane@example.com',
    });
    expect(await verifyLogin('JANE.DOE', 'long-enough-1')).toMatchObject({ id: user.id });
    const stored = await User.findById(user.id).select('+passwordHash').lean();
    expect(stored?.passwordHash).toBeTruthy();
    expect(stored?.passwordHash).not.toContain('long-enough-1');
  });

  it('refuses a username that exists in another case', async () => {
    await expect(
      createUserFromInput({ username: 'JANE.doe', role: 'admin', password: 'another-password' }),
    ).rejects.toThrow('A user named "jane.doe" already exists (usernames ignore case).');
    expect(await User.countDocuments({ username: 'jane.doe' })).toBe(1);
  });

  it('refuses a bad role, a short password and a bad e-mail', async () => {
    await expect(
      createUserFromInput({ username: 'sam', role: 'root', password: 'long-enough-1' }),
    ).rejects.toThrow('--role must be one of: admin, staff');
    await expect(
      createUserFromInput({ username: 'sam', role: 'staff', password: 'short' }),
    ).rejects.toThrow('The password must be at least 8 characters');
    await expect(
      createUserFromInput({
        username: 'sam',
        role: 'staff',
        email: 'not-an-email',
        password: 'long-enough-1',
      }),
    ).rejects.toThrow('--email must be an e-mail address');
    expect(await User.countDocuments({ username: 'sam' })).toBe(0);
  });

  it('reads the command line and refuses unknown options', () => {
    expect(
      parseUserCreateArgs(['--username', 'kim', '--role', 'admin', '--name', 'Kim Lee']),
    ).toMatchObject({
      username: 'kim',
      role: 'admin',
      name: 'Kim Lee',
    });
    expect(() => parseUserCreateArgs(['--username', 'kim', '--bogus'])).toThrow(
      /Usage: npm run user:create/,
    );
  });

  it('runs end to end with USER_PASSWORD and exits 0, or 1 with a clear message', async () => {
    const log = vi.spyOn(console, 'log').mockImplementation(() => {});
    process.env.USER_PASSWORD = 'from-the-env-1';
    expect(await main(['--username', 'ops', '--role', 'admin', '--name', 'Ops Team'])).toBe(0);
    expect(log).toHaveBeenCalledWith('Created admin "ops" (Ops Team).');
    log.mockRestore();

    await connectDb();
    expect(await verifyLogin('ops', 'from-the-env-1')).toMatchObject({
      role: 'admin',
      name: 'Ops Team',
    });

    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    expect(await main(['--username', 'OPS', '--role', 'staff'])).toBe(1);
    expect(error).toHaveBeenCalledWith(
      'A user named "ops" already exists (usernames ignore case).',
    );
    expect(await main(['--username', 'x1'])).toBe(1);
    expect(String(error.mock.calls.at(-1)?.[0])).toMatch(/Usage/);
    error.mockRestore();
  });
});
