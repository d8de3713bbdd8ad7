import { render } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { ReactElement } from "react";
import { App } from "../App";
import { AppProviders, createQueryClient } from "../providers";

export function renderWithProviders(ui: ReactElement) {
  const client = createQueryClient();
  const user = userEvent.setup();
  const result = render(<AppProviders client={client}>{ui}</AppProviders>);
  return { ...result, client, user };
}

export function renderApp() {
  return renderWithProviders(<App />);
}
