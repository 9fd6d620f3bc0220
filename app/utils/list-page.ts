/** The page a list's URL asks for (`?page=`), 1 when it is missing or not a page number. */
export function pageFrom(url: URL): number {
  const page = Number(url.searchParams.get('page') ?? 1);
  return Number.isInteger(page) && page >= 1 && page <= 100_000 ? page : 1;
}

/** The URL of one page of the list at `path`: the first page is the path itself. */
export function listPageUrl(path: string) {
  return (page: number) => (page > 1 ? `${path}?page=${page}` : path);
}
