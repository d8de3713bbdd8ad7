import { screen, waitFor, within } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import type { ConnectionDto } from "../bindings/ConnectionDto";
import i18n from "../i18n";
import { Fake, ipcError } from "../test/fake";
import { emptyOrg, fixedOrg, world } from "../test/fakeFixtures";
import { renderApp } from "../test/render";

const LIN_SIGN_IN = "postgres://lin_7:hunter2-secret@db.example.com:5432/acme";
const local: ConnectionDto = { server: null, source: "local", signInFailed: null };

/** Settings → Company server, with `connection` as the app opened it. */
async function openServerSettings(connection: ConnectionDto, configure?: (b: Fake) => void) {
  const backend = new Fake(world(fixedOrg()))
    .answer("connection", connection)
    .answer("deskUser", { personId: connection.source === "sign_in" ? 7 : null, canChange: connection.source !== "sign_in", chosen: true })
    .answer("listPeople", [{ id: 7, name: "Lin", role: "Head of Product", language: "en", approvalPolicy: "key_steps", departments: [], employees: [] }])
    .answer("restartApp", null)
    .answer("signOutOfServer", null);
  configure?.(backend);
  backend.install();
  const rendered = renderApp();
  await rendered.user.click(await screen.findByTestId("nav-settings"));
  const section = await screen.findByTestId("settings-section-server");
  return { ...rendered, backend, section };
}

afterEach(() => window.history.replaceState(null, "", "#"));

describe("joining a company server", () => {
  it("checks a pasted sign-in, keeps it out of the page once sent, says as whom, and starts again on it", async () => {
    const { user, backend, section } = await openServerSettings(local, (b) =>
      b.on("signInToServer", () => ({ server: "db.example.com:5432/acme", company: "Acme Robotics", person: "Lin" })),
    );
    const input = await within(section).findByTestId("server-sign-in-url");
    expect(input).toHaveAttribute("type", "password");
    expect(within(section).getByTestId("server-sign-in-submit")).toBeDisabled();
    await user.type(input, LIN_SIGN_IN);
    await user.click(within(section).getByTestId("server-sign-in-submit"));

    const done = await within(section).findByTestId("server-signed-in");
    expect(done).toHaveTextContent("Signed in to Acme Robotics on db.example.com:5432/acme as Lin.");
    expect(backend.inputsOf("signInToServer")).toEqual([{ url: LIN_SIGN_IN }]);
    expect(document.body.innerHTML).not.toContain("hunter2-secret");
    await user.click(within(done).getByTestId("server-restart"));
    await waitFor(() => expect(backend.callsOf("restartApp")).toHaveLength(1));
  });

  it("says why a sign-in is not kept: not a server's, refused with the server's words, no company yet", async () => {
    const { user, backend, section } = await openServerSettings(local);
    const input = await within(section).findByTestId("server-sign-in-url");
    const submit = () => user.click(within(section).getByTestId("server-sign-in-submit"));

    backend.on("signInToServer", () => ipcError("invalid_input", "a sign-in is a postgres:// URL"));
    await user.type(input, "sqlite:///tmp/acme.db");
    await submit();
    expect(await within(section).findByTestId("server-sign-in-error")).toHaveTextContent("That is not a company server's sign-in");
    expect(input).toHaveValue("");

    backend.on("signInToServer", () => ipcError("sign_in_refused", "password authentication failed for user \"lin_7\""));
    await user.type(input, LIN_SIGN_IN);
    await submit();
    const refused = await within(section).findByTestId("server-sign-in-error");
    await waitFor(() => expect(refused).toHaveTextContent("The server did not open the company with this sign-in."));
    expect(refused).toHaveTextContent('password authentication failed for user "lin_7"');

    backend.on("signInToServer", () => ipcError("company_missing"));
    await user.type(input, LIN_SIGN_IN);
    await submit();
    await waitFor(() => expect(within(section).getByTestId("server-sign-in-error")).toHaveTextContent("That server has no company yet"));
    expect(backend.callsOf("restartApp")).toHaveLength(0);
  });

  it("signed in: says where and as whom, and signing out forgets it and offers to start again", async () => {
    const { user, backend, section } = await openServerSettings({ server: "db.example.com:5432/acme", source: "sign_in", signInFailed: null });
    const connected = await within(section).findByTestId("server-connected");
    await waitFor(() => expect(connected).toHaveTextContent("Signed in to db.example.com:5432/acme as Lin"));
    expect(within(section).queryByTestId("server-sign-in-url")).toBeNull();
    await user.click(within(section).getByTestId("server-sign-out"));
    expect(await within(section).findByTestId("server-signed-out")).toHaveTextContent("the sign-in is forgotten on this computer");
    expect(backend.callsOf("signOutOfServer")).toHaveLength(1);
    await user.click(within(section).getByTestId("server-restart"));
    await waitFor(() => expect(backend.callsOf("restartApp")).toHaveLength(1));
  });

  it("a sign-in that did not open at start is said on the dashboard and explained in Settings, where it can be forgotten", async () => {
    const why = "could not reach db.example.com:5432/acme: connection refused";
    const backend = new Fake(world(fixedOrg()))
      .answer("connection", { server: null, source: "local", signInFailed: why })
      .answer("signOutOfServer", null)
      .answer("restartApp", null)
      .install();
    const { user } = renderApp();
    await user.click(await screen.findByTestId("nav-dashboard"));
    const notice = await screen.findByTestId("sign-in-failed-notice");
    expect(notice).toHaveTextContent("did not open its company");
    await user.click(within(notice).getByRole("link", { name: "See why" }));
    const section = await screen.findByTestId("settings-section-server");
    const failed = await within(section).findByTestId("server-sign-in-failed");
    expect(failed).toHaveTextContent(why);
    await user.click(within(failed).getByTestId("server-try-again"));
    await waitFor(() => expect(backend.callsOf("restartApp")).toHaveLength(1));
    await user.click(within(failed).getByTestId("server-forget"));
    expect(await within(section).findByTestId("server-sign-in-url")).toBeInTheDocument();
    expect(backend.callsOf("signOutOfServer")).toHaveLength(1);
  });

  it("opened by CUBICLE_DATABASE_URL: says so and offers no sign-in it could not honour", async () => {
    const { section } = await openServerSettings({ server: "db.example.com:5432/acme", source: "environment", signInFailed: null });
    expect(await within(section).findByTestId("server-from-environment")).toHaveTextContent("started with CUBICLE_DATABASE_URL");
    expect(within(section).queryByTestId("server-sign-in-url")).toBeNull();
    expect(within(section).queryByTestId("server-sign-out")).toBeNull();
  });

  it("a person meets it on the first run, in Chinese too", async () => {
    const backend = new Fake(world(emptyOrg()))
      .answer("connection", local)
      .on("signInToServer", () => ({ server: "db.example.com:5432/acme", company: "Acme Robotics", person: "林" }))
      .answer("restartApp", null)
      .install();
    await i18n.changeLanguage("zh-CN");
    const { user } = renderApp();
    const join = await screen.findByTestId("wizard-join");
    expect(within(join).getByRole("heading", { name: "或者：加入团队在服务器上的公司" })).toBeInTheDocument();
    await user.type(await within(join).findByTestId("server-sign-in-url"), LIN_SIGN_IN);
    await user.click(within(join).getByRole("button", { name: "登录" }));
    expect(await within(join).findByTestId("server-signed-in")).toHaveTextContent("已以 林 的身份登录 db.example.com:5432/acme 上的 Acme Robotics");
    expect(backend.callsOf("setupCompany")).toHaveLength(0);
    await i18n.changeLanguage("en");
  });
});


