import type { LoginProgress, ModelDecision, ModelInfo, RepaClient } from '@repa/protocol';
import { html } from 'htm/preact';
import { useEffect, useState } from 'preact/hooks';
import { NextModel } from './next-model.js';
import { describeError } from './panels.js';

/** Where a provider's credentials come from, in words. */
const FROM: Record<string, string> = {
  environment: "the daemon's environment",
  'auth-file': 'a key you stored',
  oauth: 'a sign-in you made',
  'models-json': "Pi's models.json",
  runtime: 'the program',
  fallback: "Pi's fallback",
};

/** One step of a login the page shows; a prompt carries what answers it. */
function LoginStep({
  step,
  onAnswer,
}: {
  step: LoginProgress;
  onAnswer: (promptId: string, value: string) => void;
}) {
  if (step.kind === 'auth_url' || step.kind === 'device_code') {
    return html`<li class="login-step">
      ${step.message}
      ${step.userCode ? html` Code: <strong class="login-code">${step.userCode}</strong>` : ''}
      ${step.url ? html` <a href=${step.url} target="_blank" rel="noopener noreferrer">Open the sign-in page</a>` : ''}
    </li>`;
  }
  if (step.kind !== 'prompt' || step.promptId === undefined) {
    return html`<li class="login-step">${step.message}</li>`;
  }
  const promptId = step.promptId;
  const id = `login-answer-${promptId}`;
  // The answer is read from the form when sent and the box emptied: a key never stays in the page.
  const submit = (event: Event) => {
    event.preventDefault();
    const field = (event.target as HTMLFormElement).elements.namedItem('answer') as
      | HTMLInputElement
      | HTMLSelectElement;
    const value = field.value;
    field.value = '';
    onAnswer(promptId, value);
  };
  return html`<li class="login-step login-prompt">
    <form onSubmit=${submit} autocomplete="off">
      <label for=${id}>${step.message}</label>
      <div class="row">
        ${
          step.promptType === 'select'
            ? html`<select id=${id} name="answer">
                ${(step.options ?? []).map((option) => html`<option value=${option.id}>${option.label}</option>`)}
              </select>`
            : html`<input id=${id} name="answer" type=${step.promptType === 'secret' ? 'password' : 'text'} autocomplete="off" spellcheck="false" />`
        }
        <button type="submit">Send</button>
      </div>
      ${step.promptType === 'secret' ? html`<p class="meta">Pi stores it in its own file; the page never shows it.</p>` : ''}
    </form>
  </li>`;
}

/**
 * Models and sign-in: the model the next run uses and why, the models with credentials, and Pi's
 * own login run in the page (its steps shown, answers typed here, a key never shown back).
 */
export function ModelsView({
  client,
  space,
  sessionId,
  version,
  next,
  onChanged,
}: {
  client: RepaClient;
  space: string;
  sessionId: string | undefined;
  version: number;
  /** The model and thinking level the next run uses (`models.next`, read by the page). */
  next: ModelDecision | undefined;
  /** Something the next run uses changed (a sign-in or sign-out). */
  onChanged: () => void;
}) {
  const [models, setModels] = useState<ModelInfo[]>([]);
  const [providers, setProviders] = useState<string[]>([]);
  const [provider, setProvider] = useState('anthropic');
  const [oauth, setOauth] = useState(false);
  const [steps, setSteps] = useState<LoginProgress[]>([]);
  const [busy, setBusy] = useState(false);
  /** The running login's id, for its Cancel button. */
  const [running, setRunning] = useState<string | undefined>(undefined);
  const [message, setMessage] = useState('');

  useEffect(() => {
    void client
      .request('models.list', { all: true })
      .then((listed) => {
        setModels(listed.models.filter((model) => model.credentials));
        setProviders([...new Set(listed.models.map((model) => model.provider))].sort());
      })
      .catch((error) => setMessage(describeError(error)));
  }, [version]);

  const signIn = async (event: Event) => {
    event.preventDefault();
    const loginId = crypto.randomUUID();
    setSteps([]);
    setMessage('');
    setBusy(true);
    setRunning(loginId);
    const stop = client.on('login.progress', (progress) => {
      if (progress.loginId === loginId) setSteps((current) => [...current, progress]);
    });
    try {
      const result = await client.request('login.start', {
        provider,
        type: oauth ? 'oauth' : 'api_key',
        loginId,
        space,
      });
      setMessage(
        `Signed in to ${provider}: ${FROM[result.connection.split(':')[1] ?? ''] ?? result.connection}.${
          result.environmentVariable
            ? ` ${result.environmentVariable} is also set in the daemon's environment; the stored key counts over it now.`
            : ''
        }`,
      );
      onChanged();
    } catch (error) {
      setMessage(describeError(error));
    } finally {
      stop();
      setSteps([]);
      setBusy(false);
      setRunning(undefined);
    }
  };
  const answer = (loginId: string) => (promptId: string, value: string) => {
    setSteps((current) => current.filter((step) => step.promptId !== promptId));
    void client.request('login.answer', { loginId, promptId, value }).catch(() => undefined);
  };
  // The login ends with `cancelled` (nothing stored), which the message then says.
  const cancel = () => {
    if (running) void client.request('login.cancel', { loginId: running }).catch(() => undefined);
  };
  const signOut = async (name: string) => {
    if (!window.confirm(`Sign out of ${name}? Pi's stored credential for it is removed.`)) return;
    try {
      const result = await client.request('login.logout', { provider: name, space });
      setMessage(
        result.removed
          ? `Signed out of ${name}.${result.connection ? ` It still has credentials from ${FROM[result.connection.split(':')[1] ?? ''] ?? result.connection}.` : ''}`
          : `Pi had no stored credential for ${name}.`,
      );
      onChanged();
    } catch (error) {
      setMessage(describeError(error));
    }
  };
  const stored = [
    ...new Set(
      models
        .filter(
          (model) => model.credentialSource === 'auth-file' || model.credentialSource === 'oauth',
        )
        .map((model) => model.provider),
    ),
  ];

  return html`<section class="panel models-view" aria-labelledby="models-heading">
    <h2 id="models-heading">Models and sign-in</h2>
    <p class="meta">The next run in this ${sessionId ? 'session' : 'space'}:</p>
    <${NextModel} next=${next} />
    <h3>Models you can use</h3>
    <ul class="provider-list">
      ${[...new Set(models.map((model) => model.provider))].map((name) => {
        const own = models.filter((model) => model.provider === name);
        const offline = own.every((model) => model.offline);
        return html`<li data-provider=${name}>
          <details>
            <summary>${
              offline
                ? 'repa-offline: the local responder (no language model, built in)'
                : `${name}: ${own.length} ${own.length === 1 ? 'model' : 'models'}, ${FROM[own[0]?.credentialSource ?? ''] ?? 'credentials'}`
            }</summary>
            <ul class="model-list">
              ${own.map(
                (model) =>
                  html`<li data-model=${model.id}>${model.name} <span class="meta">${model.id}</span></li>`,
              )}
            </ul>
          </details>
          ${
            stored.includes(name)
              ? html`<button type="button" class="sign-out" onClick=${() => void signOut(name)}>Sign out of ${name}</button>`
              : ''
          }
        </li>`;
      })}
    </ul>
    <h3>Sign in to a provider</h3>
    <form class="login" onSubmit=${signIn}>
      <label for="login-provider">Provider</label>
      <select id="login-provider" value=${provider} disabled=${busy} onChange=${(event: Event) =>
        setProvider((event.target as HTMLSelectElement).value)}>
        ${(providers.includes(provider) ? providers : [provider, ...providers]).map(
          (name) => html`<option value=${name}>${name}</option>`,
        )}
      </select>
      <label class="check" for="login-oauth">
        <input type="checkbox" id="login-oauth" checked=${oauth} disabled=${busy} onChange=${(
          event: Event,
        ) => setOauth((event.target as HTMLInputElement).checked)} />
        Sign in with the provider's page (OAuth) instead of an API key
      </label>
      <button type="submit" disabled=${busy}>${busy ? 'Signing in…' : 'Sign in'}</button>
      ${busy ? html`<button type="button" class="login-cancel" onClick=${cancel}>Cancel sign-in</button>` : ''}
    </form>
    <ol class="login-steps" aria-live="polite">
      ${steps.map((step) => html`<${LoginStep} key=${`${step.kind}:${step.promptId ?? step.message}`} step=${step} onAnswer=${answer(step.loginId)} />`)}
    </ol>
    <p class="panel-message" role="status">${message}</p>
  </section>`;
}
