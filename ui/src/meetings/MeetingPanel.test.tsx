import { screen, waitFor, within } from "@testing-library/react";
import { beforeEach, describe, expect, it } from "vitest";
import type { MeetingViewDto } from "../bindings/MeetingViewDto";
import { Fake, ipcError } from "../test/fake";
import { ChatSeed, decision, meetingOf } from "../test/fakeChatSeed";
import { company, fixedOrg, world } from "../test/fakeFixtures";
import { renderApp } from "../test/render";

/**
 * The fixed company in a rule-based meeting on load testing (Grace, Alan, Linus; Linus has the floor):
 * paying for a service was escalated to the boss, testing on a copy of staging was ruled by Grace as
 * the engineering lead, and the moderator noted why each of them got the floor.
 */
function withMeeting(seed = fixedOrg()) {
  const { backend, chats, meetings } = meetingsOf(seed);
  const chat = chats.add("meeting", "Load testing", [11, 12, 13], { topic: "Load testing" });
  const chatId = chat.id;
  chats.message(chatId, 11, "We need numbers for the login service.", { createdAt: "2025-03-01T10:00:00Z" });
  chats.message(chatId, 13, "k6 against staging, or we pay a service $5,000.", { createdAt: "2025-03-01T10:02:00Z" });
  chats.message(chatId, "system", "The secretary has taken this to the boss; the meeting goes on.", { createdAt: "2025-03-01T10:04:00Z" });
  const money = decision("Should we spend $5,000 on a load-testing service?", {
    decisionType: "money",
    outcome: "escalated",
    decidedByKind: "boss",
    status: "escalated",
    createdAt: "2025-03-01T10:04:00Z",
    authorizationChain: [
      { who: "Linus Torvalds", employeeId: 13, role: "proposed", rule: "stated in the meeting", weight: null },
      { who: "secretary", employeeId: null, role: "escalated", rule: "money decisions belong to the boss", weight: null },
    ],
  });
  const tech = decision("Run the load test on an isolated copy of staging?", {
    decisionType: "tech",
    outcome: "approved",
    decidedByKind: "lead",
    decidedByName: "Grace Hopper",
    traceId: "tr-0a1b2c3d4e5f",
    createdAt: "2025-03-01T10:06:00Z",
    authorizationChain: [
      { who: "Alan Turing", employeeId: 12, role: "proposed", rule: "stated in the meeting", weight: null },
      { who: "Linus Torvalds", employeeId: 13, role: "supported", rule: "stated in the meeting", weight: null },
      { who: "Grace Hopper", employeeId: 11, role: "decided", rule: "jurisdiction: tech questions go to the engineering lead", weight: null },
    ],
  });
  const meeting = meetingOf(chat, {
    speakerId: 13,
    speakerName: "Linus Torvalds",
    decisions: [money, tech],
    notes: [
      { kind: "speak", employeeId: 11, employeeName: "Grace Hopper", reason: "Grace Hopper called the meeting", at: "2025-03-01T10:00:00Z" },
      { kind: "speak", employeeId: 13, employeeName: "Linus Torvalds", reason: "Linus Torvalds was addressed by name in the last turn", at: "2025-03-01T10:02:00Z" },
    ],
  });
  meetings.push(meeting);
  return { backend, chats, meeting, chatId, money, tech };
}

/** Chats and the meetings held in some of them; any other chat is `not_found` for meeting_view. */
function meetingsOf(seed = fixedOrg()) {
  const chats = new ChatSeed(seed);
  const meetings: MeetingViewDto[] = [];
  const backend = new Fake(world(seed), chats.handlers()).on(
    "meetingView",
    ({ chatId }) => meetings.find((m) => m.chatId === chatId) ?? ipcError("not_found", `chat ${chatId} is not a meeting`),
  );
  return { backend, chats, meetings };
}

const open = (chatId: number) => {
  window.location.hash = `#chats/${chatId}`;
  return renderApp();
};

describe("meeting panel", () => {
  beforeEach(() => window.history.replaceState(null, "", "#chats"));

  it("shows the topic, how the moderator picks, who has the floor and the turn cap beside the conversation", async () => {
    const { backend, chatId } = withMeeting();
    backend.install();
    open(chatId);

    const panel = await screen.findByTestId("meeting-panel");
    expect(await within(panel).findByTestId("meeting-topic")).toHaveTextContent("Load testing");
    expect(panel).toHaveAttribute("data-status", "open");
    expect(within(panel).getByTestId("meeting-status")).toHaveTextContent("Open");
    expect(within(panel).getByTestId("meeting-strategy")).toHaveTextContent("Rules");
    expect(within(panel).getByTestId("meeting-floor")).toHaveTextContent("Linus Torvalds has the floor");
    expect(within(panel).getByTestId("meeting-max-turns")).toHaveTextContent("Up to 12 turns");
    expect(within(panel).getByTestId("meeting-end")).toBeEnabled();
    expect(within(panel).queryByTestId("meeting-minutes")).not.toBeInTheDocument();
    // The narrow-window strip says the same in one line.
    expect(within(panel).getByTestId("meeting-panel-toggle")).toHaveTextContent("Meeting · Rules · Linus Torvalds has the floor");
    // The conversation is still there, system notes and all.
    expect(screen.getByTestId("chat-details")).toHaveTextContent("Meeting");
    expect(within(screen.getByTestId("chat-messages")).getByText("The secretary has taken this to the boss; the meeting goes on.")).toBeInTheDocument();
    expect(backend.inputsOf("meetingView")).toContainEqual({ chatId });
  });

  it("lists the decisions, the one waiting for the boss first and highlighted, with a way to the mailbox", async () => {
    const { backend, chatId, money, tech } = withMeeting();
    backend.install();
    open(chatId);

    const list = await screen.findByTestId("meeting-decisions");
    expect(within(list).getAllByRole("listitem").filter((li) => li.dataset.testid?.match(/^meeting-decision-\d+$/)).map((li) => li.dataset.testid)).toEqual([
      `meeting-decision-${money.id}`,
      `meeting-decision-${tech.id}`,
    ]);
    expect(screen.getByTestId("meeting-decisions-count")).toHaveTextContent("2");

    const waiting = screen.getByTestId(`meeting-decision-${money.id}`);
    expect(waiting).toHaveAttribute("data-status", "escalated");
    expect(waiting).toHaveClass("bg-amber-50");
    expect(within(waiting).getByTestId(`meeting-decision-${money.id}-question`)).toHaveTextContent("Should we spend $5,000 on a load-testing service?");
    expect(within(waiting).getByTestId(`meeting-decision-${money.id}-type`)).toHaveTextContent("Money");
    expect(within(waiting).getByTestId(`meeting-decision-${money.id}-outcome`)).toHaveTextContent("Waiting for you");
    expect(within(waiting).getByTestId(`meeting-decision-${money.id}-mailbox`)).toHaveAttribute("href", "#mailbox");
    expect(within(waiting).queryByTestId(`meeting-decision-${money.id}-trace`)).not.toBeInTheDocument();

    const ruled = screen.getByTestId(`meeting-decision-${tech.id}`);
    expect(ruled).toHaveAttribute("data-status", "decided");
    expect(within(ruled).getByTestId(`meeting-decision-${tech.id}-type`)).toHaveTextContent("Tech");
    expect(within(ruled).getByTestId(`meeting-decision-${tech.id}-outcome`)).toHaveTextContent("Approved");
    expect(within(ruled).getByTestId(`meeting-decision-${tech.id}-decided-by`)).toHaveTextContent("Decided by Grace Hopper");
    expect(within(ruled).queryByTestId(`meeting-decision-${tech.id}-mailbox`)).not.toBeInTheDocument();
    expect(within(ruled).getByTestId(`meeting-decision-${tech.id}-trace`)).toHaveAttribute("href", "#traces/tr-0a1b2c3d4e5f");
  });

  it("unfolds a decision's authorization chain: who, what they did, under which rule", async () => {
    const { backend, chatId, tech, money } = withMeeting();
    backend.install();
    const { user } = open(chatId);

    const toggle = await screen.findByTestId(`meeting-decision-${tech.id}-toggle`);
    expect(toggle).toHaveAttribute("aria-expanded", "false");
    expect(screen.queryByTestId(`meeting-decision-${tech.id}-chain`)).not.toBeInTheDocument();
    await user.click(toggle);
    expect(toggle).toHaveAttribute("aria-expanded", "true");
    const chain = screen.getByTestId(`meeting-decision-${tech.id}-chain`);
    const links = within(chain).getAllByRole("listitem");
    expect(links.map((li) => li.dataset.role)).toEqual(["proposed", "supported", "decided"]);
    expect(links[0]).toHaveTextContent("Alan Turing→proposedstated in the meeting");
    expect(links[2]).toHaveTextContent("Grace Hopper→decidedjurisdiction: tech questions go to the engineering lead");
    expect(within(links[2]!).getByRole("link", { name: "Grace Hopper" })).toHaveAttribute("href", "#employee/11");

    // The secretary is not a person: named as a role, not linked.
    await user.click(screen.getByTestId(`meeting-decision-${money.id}-toggle`));
    const escalated = within(screen.getByTestId(`meeting-decision-${money.id}-chain`)).getAllByRole("listitem")[1]!;
    expect(escalated).toHaveTextContent("Secretary→escalatedmoney decisions belong to the boss");
    expect(within(escalated).queryByRole("link")).not.toBeInTheDocument();

    await user.click(toggle);
    expect(screen.queryByTestId(`meeting-decision-${tech.id}-chain`)).not.toBeInTheDocument();
  });

  it("shows a vote's weights and who decided it", async () => {
    const { backend, chats, meetings } = meetingsOf();
    const chat = chats.add("meeting", "Launch taglines", [31, 32], { topic: "Launch taglines" });
    const vote = decision("Lead with the first tagline?", {
      decidedByKind: "vote",
      outcome: "rejected",
      authorizationChain: [
        { who: "Don Draper", employeeId: 31, role: "proposed", rule: "weighted vote", weight: 1.5 },
        { who: "Peggy Olson", employeeId: 32, role: "opposed", rule: "weighted vote", weight: 2 },
        { who: "vote", employeeId: null, role: "decided", rule: "weighted vote within other: 1.5 for, 2.0 against", weight: null },
      ],
    });
    const boss = decision("Book the launch venue?", { decisionType: "external_commitment", decidedByKind: "boss" });
    meetings.push(meetingOf(chat, { strategy: "round_robin", decisions: [vote, boss] }));
    backend.install();
    const { user } = open(chat.id);

    expect(await screen.findByTestId("meeting-strategy")).toHaveTextContent("Round-robin");
    expect(screen.getByTestId("meeting-floor")).toHaveTextContent("Nobody has the floor yet");
    expect(screen.getByTestId(`meeting-decision-${vote.id}-outcome`)).toHaveTextContent("Rejected");
    expect(screen.getByTestId(`meeting-decision-${vote.id}-decided-by`)).toHaveTextContent("Decided by vote");
    expect(screen.getByTestId(`meeting-decision-${boss.id}-decided-by`)).toHaveTextContent("Decided by you");
    expect(screen.getByTestId(`meeting-decision-${boss.id}-type`)).toHaveTextContent("External commitment");
    // No chain recorded: nothing to unfold.
    expect(screen.queryByTestId(`meeting-decision-${boss.id}-toggle`)).not.toBeInTheDocument();

    await user.click(screen.getByTestId(`meeting-decision-${vote.id}-toggle`));
    expect(screen.getByTestId(`meeting-decision-${vote.id}-link-0-weight`)).toHaveTextContent("weight 1.5");
    expect(screen.getByTestId(`meeting-decision-${vote.id}-link-1-weight`)).toHaveTextContent("weight 2");
    expect(screen.getByTestId(`meeting-decision-${vote.id}-link-2`)).toHaveTextContent("The vote→decided");
    expect(screen.queryByTestId(`meeting-decision-${vote.id}-link-2-weight`)).not.toBeInTheDocument();
  });

  it("keeps the moderator's reasons folded away until the boss asks for them", async () => {
    const { backend, chatId } = withMeeting();
    backend.install();
    const { user } = open(chatId);

    const toggle = await screen.findByTestId("meeting-notes-toggle");
    expect(toggle).toHaveTextContent("Why each person got the floor (2)");
    expect(toggle).toHaveAttribute("aria-expanded", "false");
    expect(screen.queryByTestId("meeting-notes")).not.toBeInTheDocument();
    expect(screen.queryByText("Linus Torvalds was addressed by name in the last turn")).not.toBeInTheDocument();

    await user.click(toggle);
    const notes = screen.getByTestId("meeting-notes");
    expect(notes).toHaveTextContent("Only you see them");
    expect(screen.getByTestId("meeting-note-0")).toHaveTextContent("Grace Hopper got the floor");
    expect(screen.getByTestId("meeting-note-1")).toHaveTextContent("Linus Torvalds got the floor");
    expect(screen.getByTestId("meeting-note-1")).toHaveTextContent("Linus Torvalds was addressed by name in the last turn");
  });

  it("ends the meeting after the boss confirms, then shows the minutes and no End button", async () => {
    const { backend, chatId, chats, meeting } = withMeeting();
    // As the backend closes it: the minutes taken, a closing note in the chat, the minutes to the mailbox.
    backend.on("closeMeeting", () => {
      Object.assign(meeting, {
        status: "closed",
        closedAt: "2025-03-01T10:30:00Z",
        speakerId: null,
        speakerName: null,
        minutes: "Grace Hopper: We need numbers for the login service.\nLinus Torvalds: k6 against staging, or we pay a service $5,000.",
      });
      const note = chats.message(chatId, "system", "The meeting is closed; the minutes went to every member's memory and the boss's mailbox.");
      backend.emit({ type: "chat_message_posted", chatId, messageId: note.id });
      backend.emit({ type: "mail_changed" });
      return meeting;
    });
    backend.install();
    const { user } = open(chatId);

    await user.click(await screen.findByTestId("meeting-end"));
    const dialog = screen.getByTestId("meeting-end-dialog");
    expect(dialog).toHaveTextContent("End this meeting?");
    expect(dialog).toHaveTextContent("Minutes of “Load testing” are taken now");
    // Cancelling changes nothing.
    await user.click(within(dialog).getByRole("button", { name: "Cancel" }));
    expect(screen.queryByTestId("meeting-end-dialog")).not.toBeInTheDocument();
    expect(backend.callsOf("closeMeeting")).toHaveLength(0);

    await user.click(screen.getByTestId("meeting-end"));
    await user.click(screen.getByTestId("meeting-end-confirm"));
    await waitFor(() => expect(backend.inputsOf("closeMeeting")).toEqual([{ chatId }]));
    await waitFor(() => expect(screen.queryByTestId("meeting-end-dialog")).not.toBeInTheDocument());

    const minutes = await screen.findByTestId("meeting-minutes");
    expect(minutes).toHaveTextContent("Grace Hopper: We need numbers for the login service.");
    expect(screen.getByTestId("meeting-panel")).toHaveAttribute("data-status", "closed");
    expect(screen.getByTestId("meeting-status")).toHaveTextContent("Closed");
    expect(screen.getByTestId("meeting-closed-at")).toHaveTextContent(/^Closed at /);
    expect(screen.queryByTestId("meeting-floor")).not.toBeInTheDocument();
    expect(screen.queryByTestId("meeting-end")).not.toBeInTheDocument();
    // The closing note arrives in the conversation, and the minutes in the mailbox.
    expect(
      await within(screen.getByTestId("chat-messages")).findByText("The meeting is closed; the minutes went to every member's memory and the boss's mailbox."),
    ).toBeInTheDocument();
    // The mailbox is asked again for what was filed.
    await waitFor(() => expect(backend.callsOf("listMail").length).toBeGreaterThan(1));
  });

  it("shows why a meeting could not be ended, in the dialog", async () => {
    const { backend, chatId } = withMeeting();
    backend.failNext("closeMeeting", "invalid_input", "this meeting is already closed");
    backend.install();
    const { user } = open(chatId);

    await user.click(await screen.findByTestId("meeting-end"));
    await user.click(screen.getByTestId("meeting-end-confirm"));
    const dialog = screen.getByTestId("meeting-end-dialog");
    expect(await within(dialog).findByRole("alert")).toBeInTheDocument();
    expect(screen.getByTestId("meeting-end")).toBeInTheDocument();
  });

  it("shows a closed meeting's minutes and offers no End button", async () => {
    const { backend, chats, meetings } = meetingsOf();
    const chat = chats.add("meeting", "Launch taglines", [31, 32], { topic: "Launch taglines" });
    meetings.push(meetingOf(chat, { status: "closed", closedAt: "2025-03-01T16:30:00Z", minutes: 'Lead with "Your company, minus the meetings."' }));
    backend.install();
    open(chat.id);

    expect(await screen.findByTestId("meeting-minutes")).toHaveTextContent('Lead with "Your company, minus the meetings."');
    expect(screen.getByTestId("meeting-status")).toHaveTextContent("Closed");
    expect(screen.getByTestId("meeting-closed-at")).toHaveTextContent("Closed at");
    expect(screen.queryByTestId("meeting-end")).not.toBeInTheDocument();
    expect(screen.getByTestId("meeting-decisions-empty")).toHaveTextContent("No decisions yet");
  });

  it("shows no panel, and asks for no meeting, in a chat that is not a meeting", async () => {
    const { backend, chats } = meetingsOf();
    const engineering = chats.department(1);
    chats.message(engineering.id, 12, "Morning all.");
    backend.install();
    open(engineering.id);

    expect(await within(await screen.findByTestId("chat-messages")).findByText("Morning all.")).toBeInTheDocument();
    expect(screen.queryByTestId("meeting-panel")).not.toBeInTheDocument();
    expect(backend.callsOf("meetingView")).toHaveLength(0);
  });

  it("shows an error with a retry when the meeting cannot be read, and the conversation still works", async () => {
    const { backend, chatId } = withMeeting();
    backend.failNext("meetingView", "storage", "database is locked");
    backend.install();
    const { user } = open(chatId);

    const error = await screen.findByTestId("meeting-error");
    expect(within(error).getByRole("alert")).toBeInTheDocument();
    expect(screen.getByTestId("chat-input")).toBeInTheDocument();
    await user.click(screen.getByTestId("meeting-retry"));
    expect(await screen.findByTestId("meeting-topic")).toHaveTextContent("Load testing");
  });

  it("follows the meeting as it goes: a new turn refetches who has the floor and the decisions", async () => {
    const { backend, meeting, chatId, chats } = withMeeting();
    backend.install();
    open(chatId);

    expect(await screen.findByTestId("meeting-floor")).toHaveTextContent("Linus Torvalds has the floor");
    Object.assign(meeting, { speakerId: 12, speakerName: "Alan Turing" });
    const ruling = decision("Use k6?", { decisionType: "tech", decidedByKind: "lead", decidedByName: "Grace Hopper" });
    meeting.decisions.push(ruling);
    const turn = chats.message(chatId, 13, "Script is ready.");
    backend.emit({ type: "chat_message_posted", chatId, messageId: turn.id });
    expect(await screen.findByTestId(`meeting-decision-${ruling.id}`)).toBeInTheDocument();
    expect(screen.getByTestId("meeting-floor")).toHaveTextContent("Alan Turing has the floor");
  });

  it("speaks Chinese for a Chinese company", async () => {
    const { backend, chatId, money, tech } = withMeeting({ ...fixedOrg(), company: company({ language: "zh-CN" }) });
    backend.install();
    const { user } = open(chatId);

    expect(await screen.findByTestId("meeting-strategy")).toHaveTextContent("按规则");
    expect(screen.getByTestId("meeting-status")).toHaveTextContent("进行中");
    expect(screen.getByTestId("meeting-floor")).toHaveTextContent("Linus Torvalds 正在发言");
    expect(screen.getByTestId("meeting-max-turns")).toHaveTextContent("最多 12 轮");
    expect(screen.getByTestId(`meeting-decision-${money.id}-outcome`)).toHaveTextContent("等你决定");
    expect(screen.getByTestId(`meeting-decision-${money.id}-type`)).toHaveTextContent("资金");
    expect(screen.getByTestId(`meeting-decision-${tech.id}-decided-by`)).toHaveTextContent("由 Grace Hopper 决定");
    expect(screen.getByTestId("meeting-end")).toHaveTextContent("结束会议");
    await user.click(screen.getByTestId(`meeting-decision-${money.id}-toggle`));
    expect(screen.getByTestId(`meeting-decision-${money.id}-link-1`)).toHaveTextContent("秘书→上报");
    expect(screen.getByTestId("meeting-notes-toggle")).toHaveTextContent("每个人为什么获得发言权（2）");
  });
});
