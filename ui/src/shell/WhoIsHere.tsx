import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import type { CompanyDto } from "../bindings/CompanyDto";
import type { PersonDto } from "../bindings/PersonDto";
import { InlineError, Modal } from "../components/ui";
import { api } from "../ipc/api";
import { useDeskPerson, useDeskUser, usePeople } from "../ipc/queries";
import { Avatar } from "../org/Avatar";

/**
 * Who uses this desktop, in the header: the person signed in to the company server, whoever said
 * so on a computer the people share, else the boss. On a shared computer it opens the question again.
 */
export function WhoIsHere({ company }: { company: CompanyDto }) {
  const { t } = useTranslation();
  const desk = useDeskUser();
  const people = usePeople();
  const [asking, setAsking] = useState(false);
  // Asked at start only when people were already there: the boss inviting the first person is not
  // someone else sitting down.
  const peopleAtStart = useRef<number | null>(null);
  if (peopleAtStart.current === null && people.data) peopleAtStart.current = people.data.length;
  const me = useDeskPerson();
  const name = me?.name ?? company.bossName;
  const role = me ? me.role || t("shell.member") : t("shell.boss");
  const shared = desk.data?.canChange === true && (people.data?.length ?? 0) > 0;
  const who = (
    <>
      <Avatar name={name} size={32} />
      <div className="text-left leading-tight">
        <div data-testid={me ? "signed-in-name" : "boss-name"} className="text-sm font-medium text-slate-900">
          {name}
        </div>
        <div className="text-xs text-slate-500">{role}</div>
      </div>
    </>
  );
  return (
    <div className="border-l border-slate-200 pl-4">
      {shared ? (
        <button
          type="button"
          data-testid="desk-user"
          title={t("desk.switch")}
          aria-label={t("desk.switchLabel", { name })}
          className="-m-1.5 flex items-center gap-2.5 rounded-lg p-1.5 hover:bg-slate-100"
          onClick={() => setAsking(true)}
        >
          {who}
        </button>
      ) : (
        <div className="flex items-center gap-2.5">{who}</div>
      )}
      {shared && people.data && (asking || (desk.data?.chosen === false && (peopleAtStart.current ?? 0) > 0)) && (
        <WhoIsUsingThis company={company} people={people.data} onDone={() => setAsking(false)} />
      )}
    </div>
  );
}

/** The question a computer the people share asks once per start: who is using Cubicle now? */
function WhoIsUsingThis({ company, people, onDone }: { company: CompanyDto; people: PersonDto[]; onDone: () => void }) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const choose = useMutation({
    mutationFn: api.useDeskAs,
    // Everything on screen may be someone else's now: the queue, the badge, the proxy.
    onSuccess: async () => {
      await client.invalidateQueries();
      onDone();
    },
  });
  const choices: { id: number | null; name: string; role: string }[] = [
    { id: null, name: company.bossName, role: t("shell.boss") },
    ...people.map((p) => ({ id: p.id, name: p.name, role: p.role || t("shell.member") })),
  ];
  return (
    <Modal title={t("desk.title")} description={t("desk.description")} onClose={onDone} testId="desk-dialog">
      <ul className="space-y-2">
        {choices.map((c) => (
          <li key={c.id ?? "boss"}>
            <button
              type="button"
              data-testid={`desk-as-${c.id ?? "boss"}`}
              data-autofocus={c.id === null ? true : undefined}
              disabled={choose.isPending}
              onClick={() => choose.mutate({ personId: c.id })}
              className="flex w-full items-center gap-3 rounded-xl px-3 py-2.5 text-left ring-1 ring-slate-200 hover:bg-slate-50 disabled:opacity-60"
            >
              <Avatar name={c.name} size={32} />
              <span className="leading-tight">
                <span className="block text-sm font-medium text-slate-900">{c.name}</span>
                <span className="block text-xs text-slate-500">{c.role}</span>
              </span>
            </button>
          </li>
        ))}
      </ul>
      {choose.isError && (
        <div className="mt-3">
          <InlineError error={choose.error} />
        </div>
      )}
      <p className="mt-4 text-xs text-slate-500">{t("desk.notALogin")}</p>
    </Modal>
  );
}
