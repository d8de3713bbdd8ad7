import { useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import type { PriceDto } from "../bindings/PriceDto";
import { PencilIcon } from "../components/icons";
import { Badge, Button, ErrorState, LoadingState } from "../components/ui";
import { currentLanguage } from "../i18n";
import { api } from "../ipc/api";
import { errorKey } from "../ipc/errors";
import { queryKeys, useInvalidatingMutation, usePrices } from "../ipc/queries";
import { parseAmount } from "./format";
import { SettingsSection } from "./SettingsSection";

const priceId = (p: Pick<PriceDto, "providerId" | "model">) => `${p.providerId}/${p.model}`;

function formatPrice(value: number, language: string): string {
  return new Intl.NumberFormat(language, { style: "currency", currency: "USD", minimumFractionDigits: 2, maximumFractionDigits: 4 }).format(value);
}

export function PricesSection() {
  const { t } = useTranslation();
  const prices = usePrices();
  const [editing, setEditing] = useState<string | null>(null);
  const rows = prices.data
    ? [...prices.data].sort((a, b) => a.providerId.localeCompare(b.providerId) || a.model.localeCompare(b.model))
    : [];

  return (
    <SettingsSection id="prices" title={t("settings.prices.title")} description={t("settings.prices.description")}>
      {prices.isPending ? (
        <LoadingState className="py-10" />
      ) : prices.isError ? (
        <ErrorState error={prices.error} onRetry={() => void prices.refetch()} />
      ) : rows.length === 0 ? (
        <p data-testid="prices-empty" className="px-5 py-8 text-center text-sm text-slate-500">
          {t("settings.prices.empty")}
        </p>
      ) : (
        <div className="overflow-x-auto">
          <table data-testid="price-table" className="w-full">
            <thead className="bg-slate-50">
              <tr>
                <th scope="col" className="px-5 py-2 text-left text-xs font-medium text-slate-500">{t("settings.prices.provider")}</th>
                <th scope="col" className="px-3 py-2 text-left text-xs font-medium text-slate-500">{t("settings.prices.model")}</th>
                <th scope="col" className="px-3 py-2 text-right text-xs font-medium text-slate-500">{t("settings.prices.input")}</th>
                <th scope="col" className="px-3 py-2 text-right text-xs font-medium text-slate-500">{t("settings.prices.output")}</th>
                <th scope="col" className="px-3 py-2 text-left text-xs font-medium text-slate-500">{t("settings.prices.source")}</th>
                <th scope="col" className="px-5 py-2">
                  <span className="sr-only">{t("settings.prices.actions")}</span>
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {rows.map((p) =>
                editing === priceId(p) ? (
                  <PriceEditRow key={priceId(p)} price={p} onDone={() => setEditing(null)} />
                ) : (
                  <PriceRow key={priceId(p)} price={p} onEdit={() => setEditing(priceId(p))} />
                ),
              )}
            </tbody>
          </table>
        </div>
      )}
    </SettingsSection>
  );
}

function PriceRow({ price: p, onEdit }: { price: PriceDto; onEdit: () => void }) {
  const { t } = useTranslation();
  const lang = currentLanguage();
  return (
    <tr data-testid={`price-row-${priceId(p)}`}>
      <td className="px-5 py-2.5 text-sm text-slate-700">{p.providerId}</td>
      <td className="px-3 py-2.5 font-mono text-xs text-slate-700">{p.model}</td>
      <td className="px-3 py-2.5 text-right text-sm text-slate-700 tabular-nums">{formatPrice(p.inputPerMtok, lang)}</td>
      <td className="px-3 py-2.5 text-right text-sm text-slate-700 tabular-nums">{formatPrice(p.outputPerMtok, lang)}</td>
      <td className="px-3 py-2.5">
        {p.custom ? <Badge tone="indigo">{t("settings.prices.custom")}</Badge> : <Badge>{t("settings.prices.default")}</Badge>}
      </td>
      <td className="px-5 py-2.5 text-right">
        <Button
          variant="ghost"
          className="h-8 px-2.5"
          data-testid={`price-edit-${priceId(p)}`}
          aria-label={t("settings.prices.editNamed", { model: p.model })}
          onClick={onEdit}
        >
          <PencilIcon />
          {t("settings.prices.edit")}
        </Button>
      </td>
    </tr>
  );
}

function PriceEditRow({ price: p, onDone }: { price: PriceDto; onDone: () => void }) {
  const { t } = useTranslation();
  const [input, setInput] = useState(String(p.inputPerMtok));
  const [output, setOutput] = useState(String(p.outputPerMtok));
  const [invalid, setInvalid] = useState(false);
  const save = useInvalidatingMutation(api.setPrice, [queryKeys.prices]);
  const formId = `price-form-${priceId(p)}`;

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    const i = parseAmount(input);
    const o = parseAmount(output);
    if (i === null || o === null || i < 0 || o < 0) {
      setInvalid(true);
      return;
    }
    setInvalid(false);
    save.mutate({ providerId: p.providerId, model: p.model, inputPerMtok: i, outputPerMtok: o }, { onSuccess: onDone });
  };

  const cell = "w-28 rounded-md border-0 bg-white px-2 py-1.5 text-right text-sm tabular-nums shadow-sm ring-1 ring-inset ring-slate-300 focus:ring-2 focus:ring-indigo-500 focus:outline-none aria-[invalid=true]:ring-rose-400";
  return (
    <>
      <tr data-testid={`price-row-${priceId(p)}`} className="bg-indigo-50/40">
        <td className="px-5 py-2 text-sm text-slate-700">{p.providerId}</td>
        <td className="px-3 py-2 font-mono text-xs text-slate-700">{p.model}</td>
        <td className="px-3 py-2 text-right">
          <input
            form={formId}
            data-testid={`price-input-${priceId(p)}`}
            aria-label={t("settings.prices.inputLabel", { model: p.model })}
            inputMode="decimal"
            className={cell}
            value={input}
            aria-invalid={invalid && (parseAmount(input) ?? -1) < 0}
            onChange={(e) => setInput(e.target.value)}
            onKeyDown={(e) => e.key === "Escape" && onDone()}
          />
        </td>
        <td className="px-3 py-2 text-right">
          <input
            form={formId}
            data-testid={`price-output-${priceId(p)}`}
            aria-label={t("settings.prices.outputLabel", { model: p.model })}
            inputMode="decimal"
            className={cell}
            value={output}
            aria-invalid={invalid && (parseAmount(output) ?? -1) < 0}
            onChange={(e) => setOutput(e.target.value)}
            onKeyDown={(e) => e.key === "Escape" && onDone()}
          />
        </td>
        <td className="px-3 py-2" />
        <td className="px-5 py-2 text-right whitespace-nowrap">
          <form id={formId} onSubmit={onSubmit} className="inline-flex gap-1.5">
            <Button className="h-8 px-2.5" onClick={onDone}>
              {t("common.cancel")}
            </Button>
            <Button type="submit" variant="primary" className="h-8 px-2.5" data-testid={`price-save-${priceId(p)}`} disabled={save.isPending}>
              {save.isPending ? t("common.saving") : t("common.save")}
            </Button>
          </form>
        </td>
      </tr>
      {(invalid || save.isError) && (
        <tr className="bg-indigo-50/40">
          <td colSpan={6} className="px-5 pb-2">
            <p role="alert" className="text-xs text-rose-600">
              {invalid ? t("settings.prices.invalid") : t("settings.prices.failed", { message: t(errorKey(save.error)) })}
            </p>
          </td>
        </tr>
      )}
    </>
  );
}
