import { useEffect } from "react";
import type { CompanyDto } from "./bindings/CompanyDto";
import { ChatsPage } from "./chats/ChatsPage";
import { DashboardPage } from "./dashboard/DashboardPage";
import { LoadingState, ErrorState } from "./components/ui";
import { ProfilePage } from "./employee/ProfilePage";
import { setLanguage } from "./i18n";
import { useDomainEvents, useOpenApprovalEvents } from "./ipc/events";
import { useOrg } from "./ipc/queries";
import { MailboxPage } from "./mailbox/MailboxPage";
import { ApprovalsPage } from "./approvals/ApprovalsPage";
import { OrgChartPage } from "./org/OrgChartPage";
import { ProxyPage } from "./proxy/ProxyPage";
import { RelationshipsPage } from "./relationships/RelationshipsPage";
import { SecretaryPage } from "./secretary/SecretaryPage";
import { SettingsPage } from "./settings/SettingsPage";
import { AppShell } from "./shell/AppShell";
import { useRoute, type AppRoute } from "./shell/route";
import { TracesPage } from "./traces/TracesPage";
import { WorkPage } from "./work/WorkPage";
import { SetupWizard } from "./wizard/SetupWizard";

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
  if (org.data.company === null) return <SetupWizard />;
  return (
    <AppShell company={org.data.company} route={route}>
      <Page route={route} company={org.data.company} />
    </AppShell>
  );
}

function Page({ route, company }: { route: AppRoute; company: CompanyDto }) {
  switch (route.page) {
    case "settings":
      return <SettingsPage company={company} section={route.section} />;
    case "org":
      return <OrgChartPage />;
    case "chats":
      return <ChatsPage chatId={route.chatId} />;
    case "mailbox":
      return <MailboxPage mailId={route.mailId} />;
    case "approvals":
      return <ApprovalsPage approvalId={route.approvalId} />;
    case "relationships":
      return <RelationshipsPage />;
    case "proxy":
      return <ProxyPage personId={route.personId} />;
    case "employee":
      // A fresh page per person: nothing of the last profile (open dialogs, filters) carries over.
      return <ProfilePage key={route.employeeId} employeeId={route.employeeId} />;
    case "secretary":
      return <SecretaryPage />;
    case "dashboard":
      return <DashboardPage />;
    case "work":
      return <WorkPage />;
    case "traces":
      return <TracesPage traceId={route.traceId} />;
  }
}
