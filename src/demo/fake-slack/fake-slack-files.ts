/**
 * The fake Slack's files.uploadV2, in its three steps: files.getUploadURLExternal issues an upload URL, the bytes
 * are POSTed to it, files.completeUploadExternal shares the files (as a message in a channel or thread).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { type Args, parseJson, send } from './fake-slack-http.js';

/** A file shared with files.uploadV2 (files.getUploadURLExternal → upload → files.completeUploadExternal). */
export interface FakeFile {
  id: string;
  filename: string;
  title: string;
  /** The uploaded bytes, as UTF-8. */
  content: string;
  channel?: string;
  threadTs?: string;
  permalink: string;
}

/** files.getUploadURLExternal: `length` is 1 byte to 1 GB; `alt_txt` at most 1,000 characters. */
const FILE_LIMITS = { maxBytes: 1024 ** 3, maxAltText: 1000 } as const;

/** What the uploads need of the rest of the fake: its URL and its messages. */
export interface UploadHost {
  url(): string;
  hasMessage(channel: string, ts: string): boolean;
  /** Post the message that shares files (`initial_comment` as its text), in `threadTs`'s thread when given. */
  postFileMessage(channel: string, threadTs: string | undefined, text: string): void;
}

export class FakeFileUploads {
  private readonly pending = new Map<string, { filename: string; length: number; bytes?: Buffer }>();
  private readonly shared: FakeFile[] = [];

  private readonly host: UploadHost;

  constructor(host: UploadHost) {
    this.host = host;
  }

  /** Files shared with files.completeUploadExternal, in order. */
  all(): FakeFile[] {
    return [...this.shared];
  }

  /** files.getUploadURLExternal: `filename` and `length` (whole bytes, 1 B to 1 GB) are required. */
  uploadUrl(a: Args): Record<string, unknown> {
    const filename = typeof a.filename === 'string' ? a.filename : '';
    const length = Number(a.length);
    if (!filename || !Number.isInteger(length) || length < 1 || length > FILE_LIMITS.maxBytes)
      return { ok: false, error: 'invalid_arguments' };
    if (typeof a.alt_txt === 'string' && a.alt_txt.length > FILE_LIMITS.maxAltText)
      return { ok: false, error: 'alt_txt_too_large' };
    const id = `F${String(this.pending.size + this.shared.length + 1).padStart(8, '0')}`;
    this.pending.set(id, { filename, length });
    return { ok: true, upload_url: `${this.host.url()}/upload/${id}`, file_id: id };
  }

  /** The upload URL: raw bytes or multipart (the first file part); 200 when received, 404 for an unknown id. */
  async receive(id: string, req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks);
    const pending = this.pending.get(id);
    if (!pending) return void send(res, 404, { ok: false, error: 'file_not_found' });
    const type = req.headers['content-type'] ?? '';
    let bytes = raw;
    if (type.startsWith('multipart/form-data')) {
      const form = await new Response(raw, { headers: { 'content-type': type } }).formData();
      const part = [...form.values()].find((v) => typeof v !== 'string');
      bytes = part && typeof part !== 'string' ? Buffer.from(await part.arrayBuffer()) : Buffer.alloc(0);
    }
    pending.bytes = bytes;
    res.writeHead(200, { 'content-type': 'text/plain' });
    res.end(`OK - ${bytes.length}`);
  }

  /**
   * files.completeUploadExternal: every file must have been issued and uploaded with exactly the `length` declared
   * (`file_not_found` otherwise); with `channel_id` the files are shared there (in `thread_ts`'s thread, which must
   * exist) as a message, as Slack posts them.
   */
  complete(a: Args): Record<string, unknown> {
    const files = parseJson(a.files);
    if (!Array.isArray(files) || files.length === 0) return { ok: false, error: 'invalid_arguments' };
    const channel = typeof a.channel_id === 'string' && a.channel_id ? a.channel_id : undefined;
    const threadTs = typeof a.thread_ts === 'string' && a.thread_ts ? a.thread_ts : undefined;
    if (threadTs && (!channel || !this.host.hasMessage(channel, threadTs)))
      return { ok: false, error: 'invalid_thread_ts' };
    const entries = files as { id?: string; title?: string }[];
    for (const entry of entries) {
      const pending = this.pending.get(String(entry.id));
      if (!pending?.bytes || pending.bytes.length !== pending.length)
        return { ok: false, error: 'file_not_found' };
    }
    const shared = entries.map((entry) => {
      const id = String(entry.id);
      const pending = this.pending.get(id)!;
      this.pending.delete(id);
      const file: FakeFile = {
        id,
        filename: pending.filename,
        title: entry.title ?? pending.filename,
        content: pending.bytes!.toString('utf8'),
        ...(channel ? { channel } : {}),
        ...(threadTs ? { threadTs } : {}),
        permalink: `https://fake.slack.test/files/U0BOT/${id}/${encodeURIComponent(pending.filename)}`,
      };
      this.shared.push(file);
      return file;
    });
    if (channel) {
      this.host.postFileMessage(
        channel,
        threadTs,
        typeof a.initial_comment === 'string' ? a.initial_comment : '',
      );
    }
    return {
      ok: true,
      files: shared.map((f) => ({ id: f.id, title: f.title, name: f.filename, permalink: f.permalink })),
    };
  }
}
