import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import "@xyflow/react/dist/style.css";
import "./index.css";
import { App } from "./App";
import { AppProviders, createQueryClient } from "./providers";

const root = document.getElementById("root");
if (root) {
  createRoot(root).render(
    <StrictMode>
      <AppProviders client={createQueryClient()}>
        <App />
      </AppProviders>
    </StrictMode>,
  );
}
