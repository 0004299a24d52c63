import type { PermitTemplateDetail } from '@bulwark/domain';
import { Paper, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PermitFormSections } from './permit-form-sections.js';
import { EMPTY_REQUEST, type RequestState } from './request-model.js';

/**
 * The form as a requester will see it, drawn by the same component as the request flow and following
 * every save of the builder. It can be tried out (a conditional question appears when its radio
 * question is answered so), but nothing is sent: files are not uploaded, and lists show no entries.
 */
export function TemplatePreview({ template }: { template: PermitTemplateDetail }) {
  const { t } = useTranslation();
  const [state, setState] = useState<RequestState>(EMPTY_REQUEST);
  return (
    <Paper withBorder radius="md" p={{ base: 'xs', sm: 'sm' }} component="section" aria-labelledby="template-preview" bg="gray.0">
      <Stack gap="sm">
        <div>
          <Title order={2} size="h4" id="template-preview">
            {t('permitsWeb.builder.preview')}
          </Title>
          <Text size="xs" c="dimmed">
            {t('permitsWeb.builder.previewHelp')}
          </Text>
        </div>
        <Text fw={600}>{template.name}</Text>
        <PermitFormSections
          sections={template.sections}
          phase="request"
          state={state}
          onChange={setState}
          errors={{}}
          sites={[]}
          masters={null}
          upload={null}
          defaultHours={template.default_hours}
        />
      </Stack>
    </Paper>
  );
}
