import { StrictMode, useEffect } from "react";
import { createRoot } from "react-dom/client";
import "@xyflow/react/dist/style.css";
import "./index.css";
import { App } from "./App";
import { api } from "./ipc/api";
import { AppProviders, createQueryClient } from "./providers";

// After the first commit, wait for the next frame and then one task: by then that frame
// has been painted. The shell prints the time since the process started (a start-up
// figure, see scripts/startup.sh); a failure here must never disturb the app.
function ReportFirstPaint() {
  useEffect(() => {
    requestAnimationFrame(() => {
      setTimeout(() => {
        api.uiFirstPaint().catch(() => undefined);
      }, 0);
    });
  }, []);
  return null;
}

const root = document.getElementById("root");
if (root) {
  createRoot(root).render(
    <StrictMode>
      <AppProviders client={createQueryClient()}>
        <App />
        <ReportFirstPaint />
      </AppProviders>
    </StrictMode>,
  );
}
