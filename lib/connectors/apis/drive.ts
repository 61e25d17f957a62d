// The Google Drive API v3 files.list: a full-text search of the person's files (names and metadata
// only, never contents) for the Drive tool, and the files they own and modified lately for the memories
// distiller. A development connection answers from the synthetic Drive.
import { now as clockNow } from "../../platform/clock";
import { env } from "../../env";
import type { UsableConnection } from "../tools/definition";
import { DEVELOPMENT_PROVIDER } from "../types";
import { developmentFiles, developmentMatch, developmentPage, type DevelopmentFile } from "./development-data";
import type { AppSnapshot } from "../../profile/distill/snapshot";

/** Files the distiller reads. */
const SNAPSHOT_FILES = 10;
const FILE_FIELDS = "id,name,mimeType,modifiedTime,webViewLink,owners(displayName,emailAddress)";

export interface DriveFile {
  id: string;
  name: string;
  mime_type: string;
  /** When it was last modified (ISO 8601). */
  modified: string;
  /** Where the person opens it in Drive. */
  url: string | null;
  owners: Array<{ name: string | null; email: string | null }>;
}

export interface DrivePage {
  files: DriveFile[];
  next_page_token: string | null;
}

interface GoogleFile {
  id: string;
  name?: string;
  mimeType?: string;
  modifiedTime?: string;
  webViewLink?: string;
  owners?: Array<{ displayName?: string; emailAddress?: string }>;
}
interface GoogleFileList {
  files?: GoogleFile[];
  nextPageToken?: string;
}

const filesUrl = () => new URL(`${env().GOOGLE_DRIVE_API_URL}/drive/v3/files`);

/** A string literal of Drive's query language: in single quotes, with \ and ' escaped. */
export function driveString(text: string): string {
  return `'${text.replace(/\\/g, "\\\\").replace(/'/g, "\\'")}'`;
}

/** The files.list query of a full-text search for `text`, trashed files left out. */
export function driveSearchQuery(text: string): string {
  return `fullText contains ${driveString(text)} and trashed = false`;
}

function file(f: GoogleFile): DriveFile {
  return {
    id: f.id,
    name: f.name ?? "",
    mime_type: f.mimeType ?? "",
    modified: f.modifiedTime ?? "",
    url: f.webViewLink ?? null,
    owners: (f.owners ?? []).map((o) => ({ name: o.displayName ?? null, email: o.emailAddress ?? null })),
  };
}

function developmentFile(f: DevelopmentFile, owner: string | null): DriveFile {
  return { id: f.id, name: f.name, mime_type: f.mimeType, modified: f.modified.toISOString(), url: null, owners: [{ name: null, email: owner }] };
}

async function listFiles(conn: UsableConnection, params: Record<string, string>): Promise<GoogleFileList | null> {
  const url = filesUrl();
  for (const [k, v] of Object.entries({ ...params, fields: `nextPageToken,files(${FILE_FIELDS})` })) url.searchParams.set(k, v);
  return conn.fetch<GoogleFileList | null>({ url });
}

/** The files whose name or content contains `query`, as Drive ranks them. */
export async function searchDrive(conn: UsableConnection, input: { query: string; limit: number; pageToken?: string }): Promise<DrivePage> {
  if (conn.provider === DEVELOPMENT_PROVIDER) {
    const found = developmentFiles(clockNow()).filter((f) => developmentMatch(input.query, { name: f.name, text: f.text }));
    const page = developmentPage(found, input.limit, input.pageToken);
    return { files: page.items.map((f) => developmentFile(f, conn.accountEmail)), next_page_token: page.next };
  }
  const list = await listFiles(conn, {
    q: driveSearchQuery(input.query),
    pageSize: String(input.limit),
    ...(input.pageToken ? { pageToken: input.pageToken } : {}),
  });
  return { files: (list?.files ?? []).map(file), next_page_token: list?.nextPageToken ?? null };
}

/** For the memories distiller: the titles of files the person owns, most recently modified first. */
export async function snapshotDrive(conn: UsableConnection): Promise<AppSnapshot> {
  const files =
    conn.provider === DEVELOPMENT_PROVIDER
      ? developmentFiles(clockNow()).map((f) => ({ name: f.name, modified: f.modified.toISOString() }))
      : ((await listFiles(conn, { q: "'me' in owners and trashed = false", orderBy: "modifiedTime desc", pageSize: String(SNAPSHOT_FILES) }))?.files ?? []).map((f) => ({
          name: f.name ?? "",
          modified: f.modifiedTime ?? "",
        }));
  return {
    app: conn.app,
    account_email: conn.accountEmail,
    items: files
      .filter((f) => f.name)
      .slice(0, SNAPSHOT_FILES)
      .map((f) => ({ kind: "document" as const, title: f.name, modified: f.modified })),
  };
}
