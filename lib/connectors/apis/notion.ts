// The Notion API (version 2022-06-28) on the pages and databases the person shared with the
// integration: POST /search for the Notion tool (titles, links and edit times, never page content), and
// the titles of recently edited pages for the memories distiller. A development connection answers from
// the synthetic workspace.
import { now as clockNow } from "../../platform/clock";
import { env } from "../../env";
import { ApiError } from "../../http/errors";
import type { UsableConnection } from "../tools/definition";
import { DEVELOPMENT_PROVIDER } from "../types";
import { developmentMatch, developmentNotionPages, developmentPage, type DevelopmentPage } from "./development-data";
import { ProviderFailure } from "./http";
import type { AppSnapshot } from "../../profile/distill/snapshot";

/** The API version every request names (Notion-Version). */
export const NOTION_VERSION = "2022-06-28";
/** Pages the distiller reads. */
const SNAPSHOT_PAGES = 10;
/** What Notion shows for a page or database with no title. */
const UNTITLED = "Untitled";

export type NotionObject = "page" | "database";

export interface NotionResult {
  id: string;
  object: NotionObject;
  title: string;
  /** Where the person opens it in Notion. */
  url: string | null;
  /** ISO 8601. */
  last_edited_time: string;
}

export interface NotionPage {
  results: NotionResult[];
  next_page_token: string | null;
}

export interface NotionSearch {
  query: string;
  limit: number;
  pageToken?: string;
  /** Only pages, or only databases; both when absent. */
  object?: NotionObject;
}

interface RichText {
  plain_text?: string;
}
interface NotionItem {
  object: string;
  id: string;
  url?: string;
  last_edited_time?: string;
  archived?: boolean;
  in_trash?: boolean;
  /** A database's title. */
  title?: RichText[];
  /** A page's properties: its title is the one of type "title", whatever its name. */
  properties?: Record<string, { type?: string; title?: RichText[] }>;
}
interface NotionList {
  results?: NotionItem[];
  next_cursor?: string | null;
  has_more?: boolean;
}

function plain(text: RichText[] | undefined): string {
  return (text ?? [])
    .map((t) => t.plain_text ?? "")
    .join("")
    .trim();
}

/** A page's or database's title as Notion shows it. */
export function notionTitle(item: NotionItem): string {
  const rich = item.object === "database" ? item.title : Object.values(item.properties ?? {}).find((p) => p.type === "title")?.title;
  return plain(rich) || UNTITLED;
}

function result(item: NotionItem): NotionResult {
  return { id: item.id, object: item.object as NotionObject, title: notionTitle(item), url: item.url ?? null, last_edited_time: item.last_edited_time ?? "" };
}

function developmentResult(p: DevelopmentPage): NotionResult {
  return { id: p.id, object: p.object, title: p.title, url: null, last_edited_time: p.lastEdited.toISOString() };
}

async function search(conn: UsableConnection, body: Record<string, unknown>): Promise<NotionList | null> {
  return conn.fetch<NotionList | null>({ method: "POST", url: `${env().NOTION_API_URL}/search`, json: body, headers: { "notion-version": NOTION_VERSION } });
}

/**
 * The pages and databases shared with the integration whose title matches `query`, as Notion ranks
 * them; with no query, the most recently edited first.
 */
export async function searchNotion(conn: UsableConnection, input: NotionSearch): Promise<NotionPage> {
  if (conn.provider === DEVELOPMENT_PROVIDER) {
    const found = developmentNotionPages(clockNow()).filter((p) => (!input.object || p.object === input.object) && developmentMatch(input.query, { title: p.title, text: p.text }));
    const page = developmentPage(found, input.limit, input.pageToken);
    return { results: page.items.map(developmentResult), next_page_token: page.next };
  }
  let list: NotionList | null;
  try {
    list = await search(conn, {
      ...(input.query ? { query: input.query } : { sort: { direction: "descending", timestamp: "last_edited_time" } }),
      ...(input.object ? { filter: { property: "object", value: input.object } } : {}),
      ...(input.pageToken ? { start_cursor: input.pageToken } : {}),
      page_size: input.limit,
    });
  } catch (err) {
    // Notion refuses a cursor it did not give (400 validation_error): the caller's token, not Notion, is at fault.
    if (input.pageToken && err instanceof ProviderFailure && err.status === 400) {
      throw new ApiError("invalid_request", "page_token is not one this search gave.", {
        fields: [{ field: "page_token", message: "Pass back next_page_token exactly as it was answered." }],
      });
    }
    throw err;
  }
  const results = (list?.results ?? []).filter((r) => (r.object === "page" || r.object === "database") && !r.archived && !r.in_trash).map(result);
  return { results, next_page_token: list?.has_more && list.next_cursor ? list.next_cursor : null };
}

/**
 * For the memories distiller: the titles and edit times of the pages the person edited most recently.
 * No page content is read.
 */
export async function snapshotNotion(conn: UsableConnection): Promise<AppSnapshot> {
  const page = await searchNotion(conn, { query: "", limit: SNAPSHOT_PAGES, object: "page" });
  const items = page.results.filter((r) => r.title !== UNTITLED).map((r) => ({ kind: "document" as const, title: r.title, modified: r.last_edited_time }));
  return { app: conn.app, account_email: conn.accountEmail, items };
}
