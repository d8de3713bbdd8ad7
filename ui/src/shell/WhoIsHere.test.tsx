import { screen, waitFor, within } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import type { DeskUser } from "../bindings/DeskUser";
import type { PersonDto } from "../bindings/PersonDto";
import { Fake } from "../test/fake";
import { fixedOrg, world } from "../test/fakeFixtures";
import { renderApp } from "../test/render";

const LIN: PersonDto = { id: 7, name: "Lin", role: "Head of Product", language: "en", approvalPolicy: "key_steps", departments: [], employees: [] };

/** The desktop's user as the shell keeps it: fixed by a sign-in, else whoever said so. */
function deskServer(people: PersonDto[], desk: DeskUser) {
  const state = { desk: { ...desk } };
  const backend = new Fake(world(fixedOrg()))
    .on("listPeople", () => people)
    .on("deskUser", () => state.desk)
    .on("useDeskAs", ({ personId }) => {
      state.desk = { personId, canChange: true, chosen: true };
      return state.desk;
    });
  return { backend, state };
}

afterEach(() => window.history.replaceState(null, "", "#"));

describe("who uses this desktop", () => {
  it("asks once on a computer the people share, and then the header, the queue and the proxy are that person's", async () => {
    const { backend } = deskServer([LIN], { personId: null, canChange: true, chosen: false });
    backend.install();
    const { user } = renderApp();
    const dialog = await screen.findByTestId("desk-dialog");
    expect(within(dialog).getByRole("heading", { name: "Who is using Cubicle?" })).toBeInTheDocument();
    expect(within(dialog).getByTestId("desk-as-boss")).toHaveTextContent("Ada Lovelace");
    expect(dialog).toHaveTextContent("This is not a sign-in");
    const pendingBefore = backend.callsOf("listApprovals").length;
    await user.click(within(dialog).getByTestId("desk-as-7"));
    await waitFor(() => expect(screen.queryByTestId("desk-dialog")).not.toBeInTheDocument());
    expect(backend.inputsOf("useDeskAs")).toEqual([{ personId: 7 }]);
    expect(await screen.findByTestId("signed-in-name")).toHaveTextContent("Lin");
    expect(await screen.findByTestId("nav-proxy")).toHaveTextContent("My proxy");
    // The queue (and its badge) is asked for again: it is Lin's now.
    await waitFor(() => expect(backend.callsOf("listApprovals").length).toBeGreaterThan(pendingBefore));

    // Someone else sits down: the header opens the question again.
    await user.click(screen.getByTestId("desk-user"));
    await user.click(within(await screen.findByTestId("desk-dialog")).getByTestId("desk-as-boss"));
    expect(await screen.findByTestId("boss-name")).toHaveTextContent("Ada Lovelace");
    expect(backend.inputsOf("useDeskAs")).toEqual([{ personId: 7 }, { personId: null }]);
  });

  it("does not ask when the boss is alone, or when a sign-in says who this is", async () => {
    const alone = deskServer([], { personId: null, canChange: true, chosen: false });
    alone.backend.install();
    const first = renderApp();
    expect(await screen.findByTestId("boss-name")).toBeInTheDocument();
    expect(screen.queryByTestId("desk-dialog")).not.toBeInTheDocument();
    expect(screen.queryByTestId("desk-user")).not.toBeInTheDocument();
    first.unmount();

    const signedIn = deskServer([LIN], { personId: 7, canChange: false, chosen: true });
    signedIn.backend.install();
    renderApp();
    expect(await screen.findByTestId("signed-in-name")).toHaveTextContent("Lin");
    expect(screen.queryByTestId("desk-dialog")).not.toBeInTheDocument();
    expect(screen.queryByTestId("desk-user")).not.toBeInTheDocument();
  });

  it("says why a choice is refused and keeps asking", async () => {
    const { backend } = deskServer([LIN], { personId: null, canChange: true, chosen: false });
    backend.failNext("useDeskAs", "not_found", "person 7 does not exist");
    backend.install();
    const { user } = renderApp();
    const dialog = await screen.findByTestId("desk-dialog");
    await user.click(within(dialog).getByTestId("desk-as-7"));
    expect(await within(dialog).findByRole("alert")).toBeInTheDocument();
    expect(screen.getByTestId("desk-dialog")).toBeInTheDocument();
  });
});
