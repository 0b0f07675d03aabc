import { Title } from '@mantine/core';
import { TrustMode } from './TrustMode';
import { FxRates } from './FxRates';
import { TierLimits } from './TierLimits';
import { Branding } from './Branding';
import { Providers } from './Providers';
import { ReportSettings } from './ReportSettings';
import { CaseControls } from './CaseControls';

// Settings is the tenant's self-service configuration, one form per setting: each saves on its
// own, so a rejected value names the one field that caused it.
export function Settings() {
  return (
    <section aria-labelledby="set-h">
      <Title order={1} id="set-h">Settings</Title>
      <TrustMode />
      <TierLimits />
      <FxRates />
      <Branding />
      <Providers />
      <ReportSettings />
      <CaseControls />
    </section>
  );
}
