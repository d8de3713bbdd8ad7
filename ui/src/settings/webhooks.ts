// The webhook allowlist's entries as the Rust side stores them (crates/llm/src/webhook.rs,
// `destination`): a lowercase host with its explicit port; a pasted webhook URL keeps only
// that, so the secret in its path is never stored.

/** The entry `input` stands for, or null when it is not a host, host:port or http(s) URL. */
export function destinationOf(input: string): string | null {
  const text = input.trim();
  if (text === "") return null;
  let url: URL;
  try {
    url = new URL(text.includes("://") ? text : `https://${text}`);
  } catch {
    return null;
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return null;
  if (url.hostname === "") return null;
  const host = url.hostname.toLowerCase();
  return url.port ? `${host}:${url.port}` : host;
}
