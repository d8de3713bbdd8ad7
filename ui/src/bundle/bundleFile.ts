// Saving and reading company bundle files in the webview: no dialog plugin, just a Blob with
// <a download> to save and an <input type=file> to read.

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

/** Hands `json` to the browser as a download named `fileName`. */
export function saveJson(json: string, fileName: string): void {
  const url = URL.createObjectURL(new Blob([json], { type: "application/json" }));
  try {
    const a = document.createElement("a");
    a.href = url;
    a.download = fileName;
    a.rel = "noopener";
    document.body.appendChild(a);
    a.click();
    a.remove();
  } finally {
    // After the click the download has its own copy of the data.
    setTimeout(() => URL.revokeObjectURL(url), 0);
  }
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
