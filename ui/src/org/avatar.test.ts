import { describe, expect, it } from "vitest";
import { AVATAR_PALETTE, avatarColour, initials } from "./avatar";

describe("avatars", () => {
  it("makes initials from Latin and Chinese names", () => {
    expect(initials("Ada Lovelace")).toBe("AL");
    expect(initials("grace  brewster murray hopper")).toBe("GH");
    expect(initials("Plato")).toBe("PL");
    expect(initials("张伟")).toBe("张伟");
    expect(initials("欧阳娜娜")).toBe("娜娜");
    expect(initials("   ")).toBe("?");
  });

  it("derives a stable colour from the name", () => {
    expect(avatarColour("Ada Lovelace")).toEqual(avatarColour("ada lovelace "));
    expect(AVATAR_PALETTE).toContainEqual(avatarColour("张伟"));
    const colours = new Set(["Ada", "Grace", "Alan", "Linus", "Margaret", "Don", "Peggy", "Nikola"].map((n) => avatarColour(n).bg));
    expect(colours.size).toBeGreaterThan(3);
  });
});
