import { useEffect } from "react";
import { LoadingState, ErrorState } from "./components/ui";
import { setLanguage } from "./i18n";
import { useDomainEvents } from "./ipc/events";
import { useOrg } from "./ipc/queries";
import { OrgChartPage } from "./org/OrgChartPage";
import { SecretaryPage } from "./secretary/SecretaryPage";
import { SettingsPage } from "./settings/SettingsPage";
import { AppShell } from "./shell/AppShell";
import { useRoute } from "./shell/route";
import { SetupWizard } from "./wizard/SetupWizard";

export function App() {
  useDomainEvents();
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
      {route === "settings" ? (
        <SettingsPage company={org.data.company} />
      ) : route === "org" ? (
        <OrgChartPage />
      ) : (
        <SecretaryPage />
      )}
    </AppShell>
  );
}
