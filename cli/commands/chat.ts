/**
 * `charla chat <botId>`: chat with a bot in the terminal. Replies stream as they are written;
 * attachments print as type, name and URL; `--debug` prints the empathy container; `--message`
 * sends one turn and exits (`--json` for scripts). When `charla serve` holds the embedded
 * database, the chat goes through its HTTP API instead of opening the data dir.
 */
import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { userInfo } from 'node:os';
import { createInterface } from 'node:readline/promises';
import type { Command } from 'commander';
import { type CharlaConfig, loadConfig } from '../../engine/config.ts';
import { greeting } from '../../engine/conversation/texts.ts';
import { OPERATOR_HEADER, operatorToken } from '../../engine/operator.ts';
import type { TurnResult } from '../../engine/registry/index.ts';
import { languageCode } from '../../engine/schemas.ts';
import { resolveSecret, SecretBox } from '../../engine/secrets.ts';
import { dataDirHolder } from '../../engine/store/data-dir-lock.ts';
import { findChatbot } from '../../engine/store/queries/chatbots.ts';
import { CliError, EXIT, withApp } from '../util.ts';
import { serverInfoPath } from './serve.ts';

interface ChatOptions {
  message?: string;
  json?: boolean;
  debug?: boolean;
}

type Answer = Pick<TurnResult, 'reply' | 'attachment' | 'archivosEnviados' | 'offline'> & {
  contenedorEmpatico: Partial<TurnResult['contenedorEmpatico']>;
};

/** Sends one turn; `onToken` streams the reply when the transport can. */
type Send = (text: string, onToken?: (t: string) => void) => Promise<Answer>;

function printAnswer(answer: Answer, options: ChatOptions, streamed: boolean, botName: string): void {
  if (options.json) {
    process.stdout.write(`${JSON.stringify(answer, null, 2)}\n`);
    return;
  }
  if (!streamed) process.stdout.write(`${botName} › ${answer.reply}`);
  process.stdout.write('\n');
  if (answer.attachment) {
    const a = answer.attachment;
    process.stdout.write(`  📎 ${a.type} ${a.name}  ${a.url}\n`);
    if (a.caption.trim() !== answer.reply.trim()) process.stdout.write(`     ${a.caption}\n`);
  }
  if (options.debug) process.stdout.write(`${JSON.stringify(answer.contenedorEmpatico, null, 2)}\n`);
}

async function loop(
  send: Send,
  botName: string,
  greet: string,
  offline: boolean,
  options: ChatOptions,
): Promise<void> {
  if (options.message !== undefined) {
    const streamed = !options.json;
    if (streamed) process.stdout.write(`${botName} › `);
    const answer = await send(options.message, streamed ? (t) => process.stdout.write(t) : undefined);
    printAnswer(answer, options, streamed, botName);
    return;
  }
  process.stdout.write(`Chat with ${botName}. Type a message; an empty line or Ctrl+D ends.\n`);
  if (offline)
    process.stdout.write(
      '(Replies are offline: no LLM configured. Set OPENAI_BASE_URL or OPENAI_API_KEY for real ones.)\n',
    );
  process.stdout.write(`${botName} › ${greet}\n`);
  const rl = createInterface({ input: process.stdin, output: process.stdout, terminal: process.stdin.isTTY });
  try {
    while (true) {
      let line: string;
      try {
        line = await rl.question('tú › ');
      } catch {
        break;
      }
      if (!line.trim()) break;
      process.stdout.write(`${botName} › `);
      try {
        const answer = await send(line, (t) => process.stdout.write(t));
        printAnswer(answer, options, true, botName);
      } catch (err) {
        process.stdout.write(`\n  ⚠ ${(err as Error).message}\n`);
      }
    }
  } finally {
    rl.close();
  }
}

/**
 * Chat through a running server's HTTP API (JSON turns) as the operator: the server takes the
 * operator token derived from the instance secret this command reads too (engine/operator.ts), so
 * any bot answers, private ones included, and the turns are not counted as a visitor's.
 */
async function overHttp(
  url: string,
  botId: string,
  options: ChatOptions,
  settings: CharlaConfig,
): Promise<void> {
  const operator = {
    [OPERATOR_HEADER]: operatorToken(new SecretBox(resolveSecret(settings.dataDir, settings.secret))),
  };
  const configRes = await fetch(`${url}/api/chatbot-config/${encodeURIComponent(botId)}`, {
    headers: operator,
  });
  if (configRes.status === 404) throw new CliError(`no bot with id ${botId}`, EXIT.notFound);
  if (!configRes.ok) throw new CliError(`the server at ${url} answered ${configRes.status}`, EXIT.failure);
  const config = (await configRes.json()) as { business_name: string; greeting: string };
  const visitorId = `cli:${userInfo().username}`;
  let offline = false;
  const send: Send = async (text, onToken) => {
    const res = await fetch(
      `${url}/api/chatbot-message/${encodeURIComponent(botId)}${options.debug ? '?debug=1' : ''}`,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...operator },
        body: JSON.stringify({ userMessage: text, visitorId, channel: 'cli', messageId: randomUUID() }),
      },
    );
    const body = (await res.json()) as Answer & { error?: string };
    if (!res.ok)
      throw new CliError(body.error ?? `HTTP ${res.status}`, res.status === 404 ? EXIT.notFound : EXIT.usage);
    offline = body.offline;
    onToken?.(body.reply);
    return body;
  };
  await loop(send, config.business_name, config.greeting, offline, options);
}

async function chat(botId: string, options: ChatOptions): Promise<void> {
  const config = loadConfig();
  const info = serverInfoPath(config.dataDir);
  if (!config.databaseUrl && dataDirHolder(config.dataDir) && existsSync(info)) {
    const { url } = JSON.parse(readFileSync(info, 'utf8')) as { url: string };
    return overHttp(url, botId, options, config);
  }
  await withApp(async (app) => {
    app.setBaseUrl(config.publicUrl ?? 'http://127.0.0.1:8787');
    const bot = await findChatbot(app.store.db, botId);
    if (!bot) throw new CliError(`no bot with id ${botId}`, EXIT.notFound);
    const follower = { id: `cli:${userInfo().username}`, username: userInfo().username };
    // The reply path every channel takes (engine/conversation/dispatch.ts); no adapter serves
    // `cli`, so the answer comes back as it is.
    const send: Send = async (text, onToken) => {
      const { result } = await app.dispatcher.dispatch(
        undefined,
        { chatbotId: bot.id, channel: 'cli', follower, text, messageId: randomUUID() },
        { deliver: 'return', ...(onToken ? { onToken } : {}) },
      );
      if (!result) throw new CliError('the message was not answered', EXIT.failure);
      return result;
    };
    await loop(
      send,
      bot.business_name,
      greeting(languageCode(bot.idioma), bot.business_name),
      app.engine.offline,
      options,
    );
  });
}

/** Registers `chat`. */
export function registerChat(program: Command): void {
  program
    .command('chat <botId>')
    .description(
      'chat with a bot in the terminal (replies, attachments, and with --debug the empathy container)',
    )
    .option('-m, --message <text>', 'send one message, print the reply and exit')
    .option('--json', 'with --message: print the whole answer as JSON')
    .option('--debug', 'print the empathy container of each turn')
    .action((botId: string, opts: ChatOptions) => chat(botId, opts));
}
