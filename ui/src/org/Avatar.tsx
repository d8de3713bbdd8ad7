import { avatarColour, initials } from "./avatar";

export function Avatar({ name, size = 36 }: { name: string; size?: number }) {
  const colour = avatarColour(name);
  const text = initials(name);
  return (
    <span
      aria-hidden="true"
      className="inline-flex shrink-0 items-center justify-center rounded-full font-semibold select-none"
      style={{
        width: size,
        height: size,
        backgroundColor: colour.bg,
        color: colour.fg,
        fontSize: Math.round(size * (text.length > 1 ? 0.36 : 0.44)),
      }}
    >
      {text}
    </span>
  );
}
