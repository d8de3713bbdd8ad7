// Company bundle files in the webview: the name an export is saved under (the app writes it to
// Downloads) and reading a chosen file from an <input type=file>.

/** `cubicle-northwind-labs-2026-11-30.json`: the company's name made file-safe, and the day. */
export function bundleFileName(companyName: string, now = new Date()): string {
  const slug = companyName
    .normalize("NFKD")
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 40);
  const day = now.toISOString().slice(0, 10);
  return `cubicle-${slug === "" ? "company" : slug}-${day}.json`;
}

/** The text of a chosen file (File.text() where it exists, FileReader otherwise). */
export function readFileText(file: File): Promise<string> {
  if (typeof file.text === "function") return file.text();
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result ?? ""));
    reader.onerror = () => reject(reader.error ?? new Error("could not read the file"));
    reader.readAsText(file);
  });
}
