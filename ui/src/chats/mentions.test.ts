import { describe, expect, it } from "vitest";
import { findMentions, splitMentions } from "./mentions";

// The same team and cases as the Rust side's tests (crates/core/src/chat/mentions.rs).
const team = [
  { id: 1, name: "Alice Chen" },
  { id: 2, name: "Al" },
  { id: 3, name: "张伟" },
  { id: 4, name: "张伟明" },
  { id: 5, name: "Bob" },
];

describe("mentions", () => {
  it("finds full and first names at word boundaries", () => {
    expect(findMentions("@Alice can you look?", team)).toEqual([1]);
    expect(findMentions("@alice chen, please", team)).toEqual([1]);
    expect(findMentions("@Al, and @Bob", team)).toEqual([2, 5]);
    expect(findMentions("@Alicia hi", team)).toEqual([]);
    expect(findMentions("email me at a@b.com", team)).toEqual([]);
  });

  it("takes the longest Chinese name, with or without a space after it", () => {
    expect(findMentions("@张伟你看一下", team)).toEqual([3]);
    expect(findMentions("@张伟明 你看一下", team)).toEqual([4]);
    expect(findMentions("＠张伟 和 @张伟", team)).toEqual([3]);
  });

  it("cuts the text into plain runs and mentions that join back into the text", () => {
    const text = "Thanks @Alice Chen and ＠张伟明, see you @bob!";
    const segments = splitMentions(text, team);
    expect(segments).toEqual([
      { text: "Thanks ", mentionId: null },
      { text: "@Alice Chen", mentionId: 1 },
      { text: " and ", mentionId: null },
      { text: "＠张伟明", mentionId: 4 },
      { text: ", see you ", mentionId: null },
      { text: "@bob", mentionId: 5 },
      { text: "!", mentionId: null },
    ]);
    expect(segments.map((s) => s.text).join("")).toBe(text);
    expect(splitMentions("no one here", team)).toEqual([{ text: "no one here", mentionId: null }]);
    expect(splitMentions("", team)).toEqual([]);
  });
});
