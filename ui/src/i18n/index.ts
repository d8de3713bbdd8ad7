import i18n from "i18next";
import { initReactI18next } from "react-i18next";
import type { Language } from "../bindings/Language";
import { TOOL_WORDS } from "../bindings/toolTable";
import { isLanguage } from "../domain";
import en from "./en.json";
import zhCN from "./zh-CN.json";

/** The tools' words come from Rust (crates/core/src/types/tool_name.rs): `tool.<name>.action|ability|hint|wants`. */
export const resources = {
  en: { translation: { ...en, tool: TOOL_WORDS.en } },
  "zh-CN": { translation: { ...zhCN, tool: TOOL_WORDS["zh-CN"] } },
} as const;

/** Before a company exists, follow the system: Chinese systems get Chinese, everyone else English. */
export function detectLanguage(): Language {
  const preferred = typeof navigator === "undefined" ? "en" : navigator.language;
  return preferred.toLowerCase().startsWith("zh") ? "zh-CN" : "en";
}

export function currentLanguage(): Language {
  return isLanguage(i18n.language) ? i18n.language : "en";
}

export async function setLanguage(language: Language): Promise<void> {
  if (i18n.language !== language) await i18n.changeLanguage(language);
}

i18n.on("languageChanged", (lng: string) => {
  if (typeof document !== "undefined") document.documentElement.lang = lng;
});

void i18n.use(initReactI18next).init({
  resources,
  lng: detectLanguage(),
  fallbackLng: "en",
  supportedLngs: ["en", "zh-CN"],
  load: "currentOnly",
  interpolation: { escapeValue: false },
  returnNull: false,
  initAsync: false,
});

export default i18n;
