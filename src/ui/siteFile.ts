// Files shipped with the page (public/, under the site's base URL): a lesson's checkpoints.

export async function fetchSiteFile(path: string): Promise<Uint8Array> {
  const res = await fetch(`${import.meta.env.BASE_URL}${path}`);
  if (!res.ok) throw new Error(`${path}: HTTP ${res.status}`);
  return new Uint8Array(await res.arrayBuffer());
}
