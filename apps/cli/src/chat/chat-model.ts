import type { RepaClient } from '@repa/protocol';
import { describeModel, describeRunModel } from '../describe-model.js';

/** One model the chat's picker offers: its id and how it is named. */
export interface ModelChoice {
  id: string;
  label: string;
}

/** Asks the learner to pick one of `choices` (`current` first selected); undefined: kept as is. */
export type PickModel = (
  choices: readonly ModelChoice[],
  current: string,
) => Promise<string | undefined>;

type Where = { client: RepaClient; space: string; sessionId: string };

/** The models the page's picker lists: those Pi has credentials for (the offline responder too). */
async function modelChoices(chat: Where): Promise<ModelChoice[]> {
  const { models } = await chat.client.request('models.list', {});
  return models
    .filter((model) => model.credentials)
    .map((model) => ({
      id: model.id,
      label: `${describeModel(model.id)}${model.name && model.name !== model.id ? ` (${model.name})` : ''}`,
    }));
}

/**
 * `/model [ID]`: with an id, the chat's session uses that model from its next request on (a
 * session setting, as the page's "Keep for this session"); alone, `pick` offers the models the
 * page lists, or without a picker the model now and the ids to type.
 */
export async function modelCommand(
  chat: Where,
  arg: string,
  say: (text: string) => void,
  pick?: PickModel,
): Promise<void> {
  const where = { space: chat.space, sessionId: chat.sessionId };
  const { choice } = await chat.client.request('models.next', where);
  let id: string | undefined = arg;
  if (id === '') {
    const choices = await modelChoices(chat);
    if (!pick) {
      say(`[repa] model: ${describeRunModel(choice)}`);
      say(`Switch with /model ID, one of: ${choices.map((model) => model.id).join(', ')}`);
      return;
    }
    id = await pick(choices, choice.model);
    if (id === undefined || id === choice.model) {
      say(`[repa] model kept: ${describeRunModel(choice)}`);
      return;
    }
  }
  // settings.set refuses a model Pi does not know, with the closest ids.
  await chat.client.request('settings.set', {
    ...where,
    level: 'session',
    key: 'model.id',
    value: id,
  });
  const next = await chat.client.request('models.next', where);
  say(`[repa] model for this session from the next request: ${describeRunModel(next.choice)}`);
}
