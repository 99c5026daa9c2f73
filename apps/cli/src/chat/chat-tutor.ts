import type { RepaClient, SettingItemView } from '@repa/protocol';

/** Whether `settings.get`'s items have `study.mode` `tutor`. */
export function tutorOn(items: readonly SettingItemView[]): boolean {
  return items.find((item) => item.key === 'study.mode')?.value === 'tutor';
}

/**
 * `/tutor`: switches `study.mode` of the chat's session between `answer` and `tutor` (a session
 * override) and says which is on now.
 */
export async function toggleTutor(
  chat: { client: RepaClient; space: string; sessionId: string },
  say: (text: string) => void,
): Promise<void> {
  const where = { space: chat.space, sessionId: chat.sessionId };
  const { items } = await chat.client.request('settings.get', where);
  const { item } = await chat.client.request('settings.set', {
    ...where,
    level: 'session',
    key: 'study.mode',
    value: tutorOn(items) ? 'answer' : 'tutor',
  });
  say(
    item.value === 'tutor'
      ? '[repa] tutor mode on for this session: the agent asks back, hints before answering and checks your reasoning against the passage; it cannot change files or run commands. /tutor again turns it off.'
      : '[repa] tutor mode off for this session: the agent answers. /tutor turns it on.',
  );
}
