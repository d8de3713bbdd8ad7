import type { Language } from "../bindings/Language";
import type { AppRoute } from "../shell/route";

/** How the new company's employees will think: the three ways the first run offers. */
export const THINKING_PATHS = ["builtin", "download", "provider"] as const;
export type ThinkingPath = (typeof THINKING_PATHS)[number];

/**
 * The path the wizard recommends for a language, or null when none stands out. The built-in model
 * (Qwen2.5-Coder 0.5B) writes readable Chinese but only short work, so a Chinese company is
 * pointed at a bigger local model that writes it well.
 */
export function recommendedPath(language: Language): ThinkingPath | null {
  return language === "zh-CN" ? "download" : null;
}

/** Where the app goes once the company exists: nowhere new for the built-in model, else the Settings part that sets it up. */
export function pathTarget(path: ThinkingPath): AppRoute | null {
  switch (path) {
    case "builtin":
      return null;
    case "download":
      return { page: "settings", section: "local-models" };
    case "provider":
      return { page: "settings", section: "add-provider" };
  }
}
