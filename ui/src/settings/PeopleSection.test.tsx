import { screen, waitFor, within } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import i18n from "../i18n";
import type { PersonDto } from "../bindings/PersonDto";
import { Fake } from "../test/fake";
import { company, fixedOrg, world } from "../test/fakeFixtures";
import { renderApp } from "../test/render";

/** Lin answers for Engineering (with Frontend below it) and for Don Draper in Marketing. */
const lin = (): PersonDto => ({
  id: 7,
  name: "Lin",
  role: "Head of Product",
  language: "zh-CN",
  approvalPolicy: "manual",
  departments: [1],
  employees: [31],
});

/**
 * People as the backend holds them: each command stores what the UI sent and answers it back (the
 * checks are core's, tested in Rust; a refusal is scripted where a test needs one).
 */
function peopleServer(people: PersonDto[], zh = false) {
  const stored = { people: structuredClone(people) };
  let nextId = 100;
  const org = zh ? { ...fixedOrg(), company: company({ language: "zh-CN" }) } : fixedOrg();
  const backend = new Fake(world(org))
    .on("listPeople", () => stored.people)
    .on("invitePerson", (input) => {
      const p: PersonDto = {
        id: nextId++,
        name: input.name,
        role: input.role,
        language: input.language ?? "en",
        approvalPolicy: input.approvalPolicy ?? "key_steps",
        departments: input.departments,
        employees: input.employees,
      };
      stored.people.push(p);
      return p;
    })
    .on("updatePerson", (input) => {
      const p = stored.people.find((x) => x.id === input.id)!;
      Object.assign(p, {
        role: input.role ?? p.role,
        language: input.language ?? p.language,
        approvalPolicy: input.approvalPolicy ?? p.approvalPolicy,
        departments: input.departments ?? p.departments,
        employees: input.employees ?? p.employees,
      });
      return p;
    })
    .on("removePerson", ({ personId }) => {
      stored.people = stored.people.filter((p) => p.id !== personId);
      return null;
    });
  return { backend, stored };
}

async function openPeople(server: ReturnType<typeof peopleServer>) {
  server.backend.install();
  window.history.replaceState(null, "", "#settings/people");
  const rendered = renderApp();
  const section = await screen.findByTestId("settings-section-people");
  await within(section).findByTestId("people-list");
  return { ...rendered, ...server, section };
}

afterEach(() => window.history.replaceState(null, "", "#"));

describe("people in settings", () => {
  it("lists the boss first, then each person with role, language, policy and what they answer for", async () => {
    const { section } = await openPeople(peopleServer([lin()]));
    const rows = within(within(section).getByTestId("people-list")).getAllByRole("listitem");
    expect(rows).toHaveLength(2);
    expect(rows[0]).toHaveTextContent("Ada Lovelace");
    expect(rows[0]).toHaveTextContent("Boss");
    expect(rows[0]).toHaveTextContent("Answers for everything nobody else does.");
    const row = within(section).getByTestId("person-7");
    expect(row).toHaveTextContent("Lin");
    expect(row).toHaveTextContent("Head of Product");
    expect(row).toHaveTextContent("简体中文");
    expect(row).toHaveTextContent("Approvals: Manual");
    expect(within(section).getByTestId("person-7-departments")).toHaveTextContent(/^Engineering$/);
    expect(within(section).getByTestId("person-7-employees")).toHaveTextContent(/^Don Draper$/);
    expect(within(section).queryByTestId("people-empty")).not.toBeInTheDocument();
  });

  it("says nobody else is there yet, and the boss still answers for everything", async () => {
    const { section } = await openPeople(peopleServer([]));
    expect(within(section).getByTestId("person-boss")).toHaveTextContent("Ada Lovelace");
    expect(within(section).getByTestId("people-empty")).toHaveTextContent("Nobody besides you yet.");
  });

  it("shows that the people are loading until the backend answers", async () => {
    let release!: () => void;
    const server = peopleServer([lin()]);
    server.backend.hold("listPeople", new Promise<void>((r) => (release = r)));
    server.backend.install();
    window.history.replaceState(null, "", "#settings/people");
    renderApp();
    const section = await screen.findByTestId("settings-section-people");
    expect(within(section).getByRole("status")).toHaveTextContent("Loading");
    release();
    expect(await within(section).findByTestId("person-7")).toBeInTheDocument();
  });

  it("invites a person with the role, language, policy and duties chosen, in the company's language by default", async () => {
    const { user, backend, section } = await openPeople(peopleServer([]));
    await user.click(within(section).getByTestId("person-invite"));
    const dialog = await screen.findByTestId("person-dialog");
    expect(within(dialog).getByTestId("person-language")).toHaveValue("en");
    expect(within(dialog).getByTestId("person-policy")).toHaveValue("key_steps");
    // Frontend sits under Engineering, and is indented under it.
    const frontend = within(within(dialog).getByTestId("person-departments")).getByLabelText("Frontend");
    expect(frontend.closest("label")).toHaveStyle({ paddingLeft: "1.25rem" });

    await user.type(within(dialog).getByTestId("person-name"), "  Sam ");
    await user.type(within(dialog).getByTestId("person-role"), "Head of Engineering");
    await user.selectOptions(within(dialog).getByTestId("person-policy"), "manual");
    await user.click(frontend);
    await user.click(within(within(dialog).getByTestId("person-employees")).getByLabelText(/^Peggy Olson/));
    await user.click(within(dialog).getByTestId("person-save"));

    await waitFor(() =>
      expect(backend.inputsOf("invitePerson")).toEqual([
        { name: "Sam", role: "Head of Engineering", language: "en", approvalPolicy: "manual", departments: [2], employees: [32] },
      ]),
    );
    await waitFor(() => expect(screen.queryByTestId("person-dialog")).not.toBeInTheDocument());
    expect(await within(section).findByTestId("person-100-departments")).toHaveTextContent("Frontend");
    expect(within(section).getByTestId("person-100-employees")).toHaveTextContent("Peggy Olson");
    expect(within(section).queryByTestId("people-empty")).not.toBeInTheDocument();
  });

  it("refuses an empty name without asking the backend", async () => {
    const { user, backend, section } = await openPeople(peopleServer([]));
    await user.click(within(section).getByTestId("person-invite"));
    const dialog = await screen.findByTestId("person-dialog");
    await user.type(within(dialog).getByTestId("person-name"), "   ");
    await user.click(within(dialog).getByTestId("person-save"));
    expect(within(dialog).getByRole("alert")).toHaveTextContent("Enter the person's name.");
    expect(within(dialog).getByTestId("person-name")).toHaveAttribute("aria-invalid", "true");
    expect(backend.callsOf("invitePerson")).toHaveLength(0);
  });

  it("shows the backend's refusal of a taken name and keeps what was typed", async () => {
    const server = peopleServer([lin()]);
    server.backend.failNext("invitePerson", "duplicate_name", "a person named Lin already exists");
    const { user, section, stored } = await openPeople(server);
    await user.click(within(section).getByTestId("person-invite"));
    const dialog = await screen.findByTestId("person-dialog");
    await user.type(within(dialog).getByTestId("person-name"), "Lin");
    await user.click(within(dialog).getByTestId("person-save"));
    expect(await within(dialog).findByRole("alert")).toHaveTextContent("That name is already taken.");
    expect(within(dialog).getByTestId("person-name")).toHaveValue("Lin");
    expect(stored.people).toHaveLength(1);
  });

  it("changes a person's policy and duties, sending every field it shows", async () => {
    const { user, backend, section } = await openPeople(peopleServer([lin()]));
    await user.click(within(section).getByRole("button", { name: "Edit Lin" }));
    const dialog = await screen.findByTestId("person-dialog");
    expect(within(dialog).queryByTestId("person-name")).not.toBeInTheDocument();
    expect(within(dialog).getByLabelText("Engineering")).toBeChecked();
    await user.selectOptions(within(dialog).getByTestId("person-policy"), "auto");
    await user.click(within(dialog).getByLabelText("Engineering"));
    await user.click(within(dialog).getByTestId("person-save"));

    await waitFor(() =>
      expect(backend.inputsOf("updatePerson")).toEqual([
        { id: 7, role: "Head of Product", language: "zh-CN", approvalPolicy: "auto", departments: [], employees: [31] },
      ]),
    );
    await waitFor(() => expect(within(section).getByTestId("person-7")).toHaveTextContent("Approvals: Auto"));
    expect(within(section).queryByTestId("person-7-departments")).not.toBeInTheDocument();
  });

  it("removes a person only after the boss confirms", async () => {
    const { user, backend, section } = await openPeople(peopleServer([lin()]));
    await user.click(within(section).getByRole("button", { name: "Remove Lin" }));
    const dialog = await screen.findByTestId("remove-person-dialog");
    expect(dialog).toHaveTextContent("Lin will no longer answer for anything.");
    await user.click(within(dialog).getByRole("button", { name: "Cancel" }));
    expect(backend.callsOf("removePerson")).toHaveLength(0);
    expect(within(section).getByTestId("person-7")).toBeInTheDocument();

    await user.click(within(section).getByRole("button", { name: "Remove Lin" }));
    await user.click(await screen.findByTestId("remove-person-confirm"));
    await waitFor(() => expect(backend.inputsOf("removePerson")).toEqual([{ personId: 7 }]));
    await waitFor(() => expect(within(section).queryByTestId("person-7")).not.toBeInTheDocument());
    expect(within(section).getByTestId("people-empty")).toBeInTheDocument();
  });

  it("refreshes when the backend says people changed elsewhere (the CLI, the secretary)", async () => {
    const { backend, section, stored } = await openPeople(peopleServer([]));
    stored.people.push(lin());
    backend.emit({ type: "people_changed", personId: 7 });
    expect(await within(section).findByTestId("person-7")).toHaveTextContent("Lin");
  });

  it("reads in Chinese", async () => {
    const { section } = await openPeople(peopleServer([lin()], true));
    await waitFor(() => expect(i18n.language).toBe("zh-CN"));
    expect(within(section).getByRole("heading", { name: "成员" })).toBeInTheDocument();
    expect(within(section).getByTestId("person-boss")).toHaveTextContent("老板");
    expect(within(section).getByTestId("person-7")).toHaveTextContent("审批：手动");
    expect(within(section).getByRole("button", { name: "邀请成员" })).toBeInTheDocument();
    await i18n.changeLanguage("en");
  });
});
