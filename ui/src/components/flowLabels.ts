import type { AriaLabelConfig } from "@xyflow/react";
import { useMemo } from "react";
import { useTranslation } from "react-i18next";

/**
 * What the graph library (@xyflow/react) reads aloud — how to select and move a node, the minimap,
 * the controls — in the company's language; its defaults are English (SPEC §17).
 */
export function useFlowAriaLabels(): Partial<AriaLabelConfig> {
  const { t } = useTranslation();
  return useMemo(
    () => ({
      "node.a11yDescription.default": t("graph.a11y.node"),
      "node.a11yDescription.keyboardDisabled": t("graph.a11y.nodeKeyboard"),
      "node.a11yDescription.ariaLiveMessage": ({ direction, x, y }: { direction: string; x: number; y: number }) =>
        t("graph.a11y.moved", { direction: t(`graph.a11y.direction.${direction}`, { defaultValue: direction }), x, y }),
      "edge.a11yDescription.default": t("graph.a11y.edge"),
      "controls.ariaLabel": t("graph.a11y.controls"),
      "controls.zoomIn.ariaLabel": t("graph.a11y.zoomIn"),
      "controls.zoomOut.ariaLabel": t("graph.a11y.zoomOut"),
      "controls.fitView.ariaLabel": t("graph.a11y.fitView"),
      "controls.interactive.ariaLabel": t("graph.a11y.interactive"),
      "minimap.ariaLabel": t("graph.a11y.minimap"),
      "handle.ariaLabel": t("graph.a11y.handle"),
    }),
    [t],
  );
}
