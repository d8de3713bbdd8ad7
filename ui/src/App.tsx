import { Suspense, useEffect } from "react";
import type { CompanyDto } from "./bindings/CompanyDto";
import { LoadingState, ErrorState } from "./components/ui";
import { setLanguage } from "./i18n";
import { useDomainEvents, useOpenApprovalEvents } from "./ipc/events";
import { useOrg } from "./ipc/queries";
import { AppShell } from "./shell/AppShell";
import { pages } from "./shell/pages";
import { useRoute, type AppRoute } from "./shell/route";

export function App() {
  useDomainEvents();
  useOpenApprovalEvents();
  const org = useOrg();
  const route = useRoute();
  const language = org.data?.company?.language;

  // The company's language is the source of truth once a company exists.
  useEffect(() => {
    if (language) void setLanguage(language);
  }, [language]);

  if (org.isPending) return <LoadingState className="h-full" />;
  if (org.isError) return <ErrorState className="h-full" error={org.error} onRetry={() => void org.refetch()} />;
  if (org.data.company === null) {
    return (
      <Suspense fallback={<LoadingState className="h-full" />}>
        <pages.wizard.Component />
      </Suspense>
    );
  }
  return (
    <AppShell company={org.data.company} route={route}>
      <Suspense fallback={<LoadingState className="h-full" />}>
        <Page route={route} company={org.data.company} />
      </Suspense>
    </AppShell>
  );
}

function Page({ route, company }: { route: AppRoute; company: CompanyDto }) {
  switch (route.page) {
    case "settings":
      return <pages.settings.Component company={company} section={route.section} />;
    case "org":
      return <pages.org.Component />;
    case "chats":
      return <pages.chats.Component chatId={route.chatId} />;
    case "mailbox":
      return <pages.mailbox.Component mailId={route.mailId} />;
    case "approvals":
      return <pages.approvals.Component approvalId={route.approvalId} />;
    case "relationships":
      return <pages.relationships.Component />;
    case "proxy":
      return <pages.proxy.Component personId={route.personId} />;
    case "employee":
      // A fresh page per person: nothing of the last profile (open dialogs, filters) carries over.
      return <pages.employee.Component key={route.employeeId} employeeId={route.employeeId} />;
    case "secretary":
      return <pages.secretary.Component />;
    case "dashboard":
      return <pages.dashboard.Component />;
    case "work":
      return <pages.work.Component />;
    case "traces":
      return <pages.traces.Component traceId={route.traceId} />;
  }
}
