export default function NoParcelSelected() {
  return (
    <section className="card flex flex-col items-center gap-2 p-10 text-center">
      <svg
        viewBox="0 0 24 24"
        className="h-10 w-10 text-gray-400"
        fill="none"
        stroke="currentColor"
        strokeWidth="2"
        aria-hidden="true"
      >
        <path d="M21 8l-9-5-9 5 9 5 9-5zM3 8v8l9 5 9-5V8M12 13v8" />
      </svg>
      <h2 className="text-lg font-semibold text-gray-900">No Parcel Selected</h2>
      <p className="text-sm text-gray-600">
        Select a parcel from the list to see and manage its tracking events.
      </p>
    </section>
  );
}
