/** A temporary password, shown this once: it is not stored in the clear anywhere. */
export function TemporaryPassword({ username, password }: { username: string; password: string }) {
  return (
    <div role="alert" className="space-y-2 rounded-md border border-green-200 bg-green-50 p-4">
      <p className="font-semibold text-green-900">{`Temporary password for ${username}`}</p>
      <p>
        <code
          className="select-all rounded bg-white px-2 py-1 font-mono text-lg"
          data-testid="temporary-password"
        >
          {password}
        </code>
      </p>
      <p className="text-sm text-green-900">
        It is shown only this once. Pass it on safely; the user must choose a new password at the
        first sign-in.
      </p>
    </div>
  );
}
