import { ONBOARDING_STEPS, type OnboardingStep } from '@bulwark/domain';
import { Alert, Button, Group, Paper, Stack, Stepper, Text } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { notifySuccess } from '../../app/notify.js';
import { useServices } from '../../app/services.js';
import { useProfile } from '../../app/use-profile.js';
import { serverErrors } from '../../ui/forms/validation.js';
import { PageHeader, PageLoader } from '../../ui/index.js';
import { useOnboardingCommands, useOnboardingStatus, useRefreshOnboarding } from './onboarding-api.js';
import { HeadOfSafetyStep } from './steps/head-of-safety-step.js';
import { InviteStep } from './steps/invite-step.js';
import { RolesStep } from './steps/roles-step.js';
import { SiteStep } from './steps/site-step.js';
import { TimezoneStep } from './steps/timezone-step.js';

/**
 * The forced set-up wizard (spec 000 §2). The server says which steps are done; the person may go back
 * to any step, and "Finish" is offered once every required step is done.
 */
export function OnboardingPage() {
  const { t } = useTranslation();
  const { queryClient } = useServices();
  const commands = useOnboardingCommands();
  const profile = useProfile();
  const navigate = useNavigate();
  const status = useOnboardingStatus();
  const refresh = useRefreshOnboarding();
  const [chosen, setChosen] = useState<OnboardingStep | null>(null);
  const [finishing, setFinishing] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);

  if (!profile || !status.data) {
    return <PageLoader />;
  }
  const organization = profile.organization?.name ?? '';
  if (!profile.user.is_admin) {
    return (
      <Stack maw={720}>
        <PageHeader title={t('onboarding.title', { organization })} />
        <Alert color="blue">{t('onboarding.waitForAdmin')}</Alert>
      </Stack>
    );
  }

  const { steps, next } = status.data;
  const active = chosen ?? next ?? 'invite';
  const index = ONBOARDING_STEPS.indexOf(active);
  const goNext = async () => {
    await refresh();
    setChosen(null);
  };

  const finish = async () => {
    setProblem(null);
    setFinishing(true);
    try {
      await commands.complete();
      notifySuccess(t('onboarding.finished'));
      await queryClient.invalidateQueries();
      await navigate('/', { replace: true });
    } catch (error) {
      const shown = serverErrors(error, t('errors.somethingWentWrong'));
      setProblem(Object.values(shown.fields).join(' ') || shown.message);
    } finally {
      setFinishing(false);
    }
  };

  const body: Record<OnboardingStep, React.ReactNode> = {
    timezone: <TimezoneStep current={status.data.timezone} onDone={goNext} />,
    site: <SiteStep timezone={status.data.timezone} me={profile.user.id} onDone={goNext} />,
    headOfSafety: <HeadOfSafetyStep onDone={goNext} />,
    roles: <RolesStep onDone={goNext} />,
    invite: <InviteStep onDone={goNext} />,
  };

  return (
    <Stack maw={960}>
      <PageHeader title={t('onboarding.title', { organization })} description={t('onboarding.intro')} />
      <Stepper active={index} onStepClick={(i) => setChosen(ONBOARDING_STEPS[i] ?? null)} allowNextStepsSelect={false} size="sm" wrap>
        {ONBOARDING_STEPS.map((s) => (
          <Stepper.Step
            key={s}
            label={t(`onboarding.steps.${s}`)}
            description={steps[s] ? t('onboarding.stepDone') : undefined}
            completedIcon={undefined}
            color={steps[s] ? 'teal' : undefined}
            allowStepSelect
          />
        ))}
      </Stepper>
      <Paper withBorder p="lg" radius="md">
        <Stack>
          <Text c="dimmed">{t(`onboarding.help.${active}`)}</Text>
          {body[active]}
        </Stack>
      </Paper>
      {problem ? (
        <Alert color="red" role="alert">
          {problem}
        </Alert>
      ) : null}
      <Group justify="space-between">
        <Button variant="default" disabled={index === 0} onClick={() => setChosen(ONBOARDING_STEPS[index - 1] ?? null)}>
          {t('onboarding.back')}
        </Button>
        <Button onClick={() => void finish()} loading={finishing} disabled={next !== null && next !== 'invite'}>
          {t('onboarding.finish')}
        </Button>
      </Group>
    </Stack>
  );
}
