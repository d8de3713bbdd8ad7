import { screen, waitFor, within } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import type { ChatMessageDto } from "../bindings/ChatMessageDto";
import type { PersonDto } from "../bindings/PersonDto";
import type { ProxyCard } from "../bindings/ProxyCard";
import type { ProxyLineDto } from "../bindings/ProxyLineDto";
import type { WrittenLine } from "../bindings/WrittenLine";
import i18n from "../i18n";
import { Fake } from "../test/fake";
import { company, fixedOrg, world } from "../test/fakeFixtures";
import { renderApp } from "../test/render";

const person = (id: number, name: string, role: string): PersonDto => ({
  id,
  name,
  role,
  language: "en",
  approvalPolicy: "key_steps",
  departments: [],
  employees: [],
});
const LIN = person(7, "Lin", "Head of Product");
const SAM = person(8, "Sam", "Head of Engineering");

const cardOf = (p: PersonDto): ProxyCard => ({
  person: p,
  name: `${p.name}'s proxy`,
  answersFor: p.id === 7 ? ["Product"] : [],
  may: ["ask, tell and answer people in your name", "give tasks to the employees you answer for"],
  mayNot: ["answer or commit for its person on its own"],
});

const AT = "2026-12-03T10:00:00Z";

/** Proxies as core keeps them: a request is a line, the reply another, and "ask" posts in the person's name. */
function proxyServer(people: PersonDto[], opts: { signedInAs?: number; zh?: boolean } = {}) {
  const lines = new Map<number, ProxyLineDto[]>();
  const written = new Map<number, WrittenLine[]>();
  let next = 1;
  const org = opts.zh ? { ...fixedOrg(), company: company({ language: "zh-CN" }) } : fixedOrg();
  const backend = new Fake(world(org))
    .on("listPeople", () => people)
    .on("connection", () => (opts.signedInAs ? { server: "db:5432/acme", source: "sign_in", signInFailed: null } : { server: null, source: "local", signInFailed: null }))
    .on("deskUser", () => ({ personId: opts.signedInAs ?? null, canChange: opts.signedInAs === undefined, chosen: true }))
    .on("proxyCard", ({ personId }) => cardOf(people.find((p) => p.id === personId)!))
    .on("proxyConversation", ({ personId }) => lines.get(personId) ?? [])
    .on("proxyWritten", ({ personId }) => written.get(personId) ?? [])
    .on("sayToProxy", ({ personId, text }) => {
      const said: ProxyLineDto = { id: next++, personId, at: AT, speaker: "person", text, chatMessageId: null, traceId: null };
      const reply: ProxyLineDto = { id: next++, personId, at: AT, speaker: "proxy", text: "I asked Sam in your chat with him.", chatMessageId: 50, traceId: null };
      const posted: ChatMessageDto = {
        id: 50,
        chatId: 9,
        senderKind: "proxy",
        senderEmployeeId: null,
        senderPersonId: personId,
        senderName: "Lin",
        text: "Sam, could you estimate the checkout redesign?",
        mentions: [],
        traceId: null,
        createdAt: AT,
        correctsId: null,
      };
      lines.set(personId, [...(lines.get(personId) ?? []), said, reply]);
      written.set(personId, [{ message: posted, correctedBy: null }, ...(written.get(personId) ?? [])]);
      return { said, reply, posted };
    })
    .on("correctProxyLine", ({ personId, messageId, text }) => {
      const line = written.get(personId)!.find((l) => l.message.id === messageId)!;
      const fixed: ChatMessageDto = { ...line.message, id: 51, senderKind: "person", text, correctsId: messageId };
      line.correctedBy = fixed.id;
      return fixed;
    });
  return backend;
}

async function open(backend: Fake, hash = "#proxy") {
  backend.install();
  window.history.replaceState(null, "", hash);
  const rendered = renderApp();
  const page = await screen.findByTestId("proxy-page");
  return { ...rendered, page };
}

afterEach(async () => {
  window.history.replaceState(null, "", "#");
  await i18n.changeLanguage("en");
});

describe("a person's proxy", () => {
  it("is not in the navigation while the boss is alone, and the page says why", async () => {
    const { page } = await open(proxyServer([]));
    expect(screen.queryByTestId("nav-proxy")).not.toBeInTheDocument();
    expect(within(page).getByTestId("proxy-empty")).toHaveTextContent("Nobody besides you is in the company yet");
  });

  it("asks whose proxy on the boss's desktop and shows that proxy's card and empty conversation", async () => {
    const { page, user } = await open(proxyServer([LIN, SAM]));
    expect(await screen.findByTestId("nav-proxy")).toHaveTextContent("Proxies");
    const picker = within(page).getByTestId("proxy-person");
    expect(picker).toHaveValue("7");
    const card = await within(page).findByTestId("proxy-card");
    expect(card).toHaveTextContent("Lin's proxy");
    expect(within(card).getByTestId("proxy-answers-for")).toHaveTextContent("Product");
    expect(within(page).getByTestId("proxy-conversation-empty")).toHaveTextContent("Nothing said to Lin's proxy yet");

    await user.selectOptions(picker, "8");
    await waitFor(() => expect(window.location.hash).toBe("#proxy/8"));
    expect(await within(page).findByText("Sam's proxy")).toBeInTheDocument();
    expect(within(page).getByText("Nothing yet: the boss decides it in Settings → People.")).toBeInTheDocument();
  });

  it("sends what the person says, shows the reply, and lets them replace what it wrote with their own words", async () => {
    const backend = proxyServer([LIN, SAM]);
    const { page, user } = await open(backend, "#proxy/7");
    await user.type(await within(page).findByTestId("proxy-input"), "ask Sam for an estimate of the checkout redesign{Enter}");
    await waitFor(() => expect(backend.inputsOf("sayToProxy")).toEqual([{ personId: 7, text: "ask Sam for an estimate of the checkout redesign" }]));
    const conversation = await within(page).findByTestId("proxy-conversation");
    const lines = within(conversation).getAllByRole("listitem");
    expect(lines.map((l) => l.dataset.speaker)).toEqual(["person", "proxy"]);
    expect(lines[1]).toHaveTextContent("I asked Sam in your chat with him.");
    expect(within(page).getByTestId("proxy-input")).toHaveValue("");

    const posted = await within(page).findByTestId("proxy-written-50");
    expect(posted).toHaveTextContent("by the proxy");
    expect(within(posted).getByRole("link", { name: "Open the chat" })).toHaveAttribute("href", "#chats/9");
    await user.click(within(posted).getByRole("button", { name: "Correct" }));
    const box = within(posted).getByTestId("proxy-correction");
    await user.clear(box);
    await user.type(box, "Sam, a rough estimate is enough for now.");
    await user.click(within(posted).getByTestId("proxy-correction-save"));
    await waitFor(() =>
      expect(backend.inputsOf("correctProxyLine")).toEqual([{ personId: 7, messageId: 50, text: "Sam, a rough estimate is enough for now." }]),
    );
    expect(await within(page).findByText("corrected")).toBeInTheDocument();
  });

  it("is the signed-in person's own on their desktop, with no way to pick another", async () => {
    const { page } = await open(proxyServer([LIN, SAM], { signedInAs: 8 }), "#proxy/7");
    expect(await screen.findByTestId("nav-proxy")).toHaveTextContent("My proxy");
    expect(within(page).queryByTestId("proxy-person")).not.toBeInTheDocument();
    expect(await within(page).findByText("Sam's proxy")).toBeInTheDocument();
    // The header says who uses this desktop: Sam, not the boss.
    expect(await screen.findByTestId("signed-in-name")).toHaveTextContent("Sam");
    expect(screen.queryByTestId("boss-name")).not.toBeInTheDocument();
  });

  it("says why a request is refused and keeps what was typed", async () => {
    const backend = proxyServer([LIN, SAM]);
    backend.failNext("sayToProxy", "not_your_decision", "this is Lin's proxy: signed in as someone else, you cannot speak through it");
    const { page, user } = await open(backend, "#proxy/7");
    await user.type(await within(page).findByTestId("proxy-input"), "tell Mia hello{Enter}");
    expect(await within(page).findByRole("alert")).toBeInTheDocument();
    expect(within(page).getByTestId("proxy-input")).toHaveValue("tell Mia hello");
  });

  it("reads in Chinese", async () => {
    const { page } = await open(proxyServer([LIN], { zh: true }));
    await waitFor(() => expect(i18n.language).toBe("zh-CN"));
    expect(within(page).getByRole("heading", { name: "代理" })).toBeInTheDocument();
    expect(await within(page).findByText("负责")).toBeInTheDocument();
    expect(within(page).getByTestId("proxy-send")).toHaveTextContent("发送");
  });
});
