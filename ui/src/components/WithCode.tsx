/**
 * A translated sentence with commands in it: each `…` span (a command the reader may type, such as
 * `cubicle-cli imported confirm`) is shown as code, the rest as text. Keeps commands out of the
 * words a translation changes, and shows them as what they are.
 */
export function WithCode({ text }: { text: string }) {
  const parts = text.split("`");
  return (
    <>
      {parts.map((part, i) =>
        i % 2 === 1 ? (
          <code key={i} className="rounded bg-slate-100 px-1 py-px font-mono text-[0.92em] text-slate-700">
            {part}
          </code>
        ) : (
          part
        ),
      )}
    </>
  );
}
