import { useTranslation } from "react-i18next";
import type { StaminaDto } from "../bindings/StaminaDto";
import { Card } from "./Card";
import { ZONE_COLOUR, clampPercent, comfortLabel } from "./format";

const ZONE_TEXT = {
  green: "text-emerald-700",
  yellow: "text-amber-700",
  red: "text-rose-700",
} as const;

/** Comfort as a ring (0–100) in its zone's colour: green above 70, yellow 40–70, red below 40. */
function ComfortGauge({ stamina }: { stamina: StaminaDto }) {
  const { t } = useTranslation();
  const value = clampPercent(stamina.comfort);
  const shown = comfortLabel(stamina.comfort, stamina.zone);
  const size = 112;
  const stroke = 10;
  const r = (size - stroke) / 2;
  const circumference = 2 * Math.PI * r;
  // A three-quarter ring, open at the bottom, like a dial.
  const arc = circumference * 0.75;
  return (
    <div
      role="meter"
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={shown}
      aria-valuetext={t("profile.stamina.comfortValue", { value: shown, zone: t(`profile.stamina.zone.${stamina.zone}`) })}
      aria-label={t("profile.stamina.comfort")}
      data-testid="stamina-gauge"
      data-zone={stamina.zone}
      className="relative shrink-0"
      style={{ width: size, height: size }}
    >
      <svg width={size} height={size} viewBox={`0 0 ${size} ${size}`} aria-hidden="true" className="rotate-[135deg]">
        <circle
          cx={size / 2}
          cy={size / 2}
          r={r}
          fill="none"
          stroke="#f1f5f9"
          strokeWidth={stroke}
          strokeLinecap="round"
          strokeDasharray={`${arc} ${circumference}`}
        />
        <circle
          cx={size / 2}
          cy={size / 2}
          r={r}
          fill="none"
          stroke={ZONE_COLOUR[stamina.zone]}
          strokeWidth={stroke}
          strokeLinecap="round"
          strokeDasharray={`${(arc * value) / 100} ${circumference}`}
        />
      </svg>
      <div className="absolute inset-0 flex flex-col items-center justify-center">
        <span data-testid="stamina-comfort" className="text-3xl font-semibold tracking-tight text-slate-900 tabular-nums">
          {shown}
        </span>
        <span className="text-[11px] font-medium text-slate-500">{t("profile.stamina.comfort")}</span>
      </div>
    </div>
  );
}

function Bar({ label, value, colour, testId, hint }: { label: string; value: number; colour: string; testId: string; hint: string }) {
  const shown = Math.round(clampPercent(value));
  return (
    <div>
      <div className="flex items-baseline justify-between text-xs">
        <span className="font-medium text-slate-600" title={hint}>
          {label}
        </span>
        <span className="text-slate-500 tabular-nums">{shown}</span>
      </div>
      <div
        role="meter"
        aria-label={label}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={shown}
        data-testid={testId}
        className="mt-1 h-1.5 overflow-hidden rounded-full bg-slate-100"
      >
        <div className={`h-full rounded-full ${colour}`} style={{ width: `${shown}%` }} />
      </div>
    </div>
  );
}

/** SPEC §7: comfort = patience − (fatigue·0.4 + stress·0.6), and what each zone does to the prompt. */
export function StaminaCard({ stamina, name }: { stamina: StaminaDto; name: string }) {
  const { t } = useTranslation();
  return (
    <Card title={t("profile.stamina.title")} testId="profile-stamina">
      <div className="flex items-center gap-4">
        <ComfortGauge stamina={stamina} />
        <div className="min-w-0">
          <p data-testid="stamina-zone" className={`text-sm font-semibold ${ZONE_TEXT[stamina.zone]}`}>
            {t(`profile.stamina.zone.${stamina.zone}`)}
          </p>
          <p className="mt-1 text-xs leading-relaxed text-slate-500">{t(`profile.stamina.zoneHint.${stamina.zone}`, { name })}</p>
        </div>
      </div>
      <div className="mt-4 space-y-3">
        <Bar
          label={t("profile.stamina.patience")}
          hint={t("profile.stamina.patienceHint")}
          value={stamina.patience}
          colour="bg-indigo-500"
          testId="stamina-patience"
        />
        <Bar
          label={t("profile.stamina.fatigue")}
          hint={t("profile.stamina.fatigueHint")}
          value={stamina.fatigue}
          colour="bg-amber-400"
          testId="stamina-fatigue"
        />
        <Bar
          label={t("profile.stamina.stress")}
          hint={t("profile.stamina.stressHint")}
          value={stamina.stress}
          colour="bg-rose-400"
          testId="stamina-stress"
        />
      </div>
    </Card>
  );
}
