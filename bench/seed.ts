// The memory benchmark's data: 1,000 users with 200,000 memories, imports and composed profiles, written with batched SQL.
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import { emptyComposition, fold } from "../lib/profile/compose";
import { article, keyOf, slugOf } from "../lib/profile/distill/normalise";
import { lockDataDir } from "../lib/platform/db/lock";
import { parsePostgresUrl, PGLITE_OPTIONS } from "../lib/platform/db/open";

/** What the seed needs of a connection: node-postgres and PGlite both answer `query(text, params)`. */
export interface SeedSql {
  query(text: string, params?: unknown[]): Promise<{ rows: unknown[] }>;
}

/** The developer and agent POST /v1/sandbox/provision made; the seeded users belong to them. */
export interface SeedTarget {
  developerId: string;
  agentId: string;
  agentHandle: string;
}

export interface SeedPlan {
  users: number;
  memories: number;
  /** Memories of the one heavy user (the first seeded user); the rest share the remainder. */
  heavyMemories: number;
}

export const DEFAULT_PLAN: SeedPlan = { users: 1_000, memories: 200_000, heavyMemories: 10_000 };

export interface SeededUser {
  externalId: string;
  memories: number;
}

export interface SeedResult {
  users: SeededUser[];
  heavy: SeededUser;
  counts: Record<string, number>;
  ms: number;
}

const BATCH_ROWS = 1_000;
const DAY_MS = 86_400_000;
const WINDOW_DAYS = 730;
const IMPORT_PROVIDERS = ["chatgpt", "claude"] as const;
/** Memories per import file: a heavy user imported several times. */
const MEMORIES_PER_IMPORT = 400;

// Word lists. Fact texts take the built-in distiller's shape ("Lives in Lisbon"), keys its keyOf().
const w = (s: string) => s.split("|");
export const WORDS = {
  given: w(
    "Ana|Ben|Chloe|Dev|Elena|Farid|Grace|Hiro|Ines|Jonas|Kemi|Liam|Maya|Nikhil|Olga|Pablo|Quinn|Rosa|Sami|Tomas|Uma|Viktor|Wen|Yara|Zoe|Amir|Bea|Carlos|Dana|Emeka|Freya|Gustavo|Hana|Ivan|Jade|Kofi|Lena|Marco|Noor|Omar",
  ),
  family: w(
    "Silva|Okafor|Nguyen|Schmidt|Haddad|Kowalski|Tanaka|Moreau|Rossi|Jensen|Patel|Garcia|Novak|Lindqvist|Mensah|Costa|Fischer|Ivanova|Murphy|Sato|Dubois|Khan|Larsen|Oliveira|Reyes|Bauer|Cohen|Ferreira|Hughes|Yilmaz",
  ),
  cities: w(
    "Lisbon|Porto|Berlin|Hamburg|Dublin|Galway|Toronto|Vancouver|Austin|Denver|Seattle|Chicago|Boston|Madrid|Barcelona|Valencia|Lyon|Paris|Amsterdam|Utrecht|Copenhagen|Oslo|Stockholm|Helsinki|Vienna|Prague|Krakow|Budapest|Athens|Milan|Turin|Bologna|Zurich|Edinburgh|Manchester|Bristol|Nairobi|Lagos|Accra|Cape Town|Mumbai|Bangalore|Singapore|Tokyo|Osaka|Kyoto|Seoul|Sydney|Melbourne|Auckland|Mexico City|Bogota|Lima|Santiago|Buenos Aires|Montreal|Reykjavik|Tallinn|Istanbul|Tbilisi",
  ),
  countries: w(
    "Brazil|Portugal|Germany|Ireland|Canada|India|Nigeria|Ghana|Kenya|Japan|Korea|Poland|Italy|Spain|France|Mexico|Colombia|Chile|Argentina|Sweden|Norway|Vietnam|Turkey|Egypt|Greece|Ukraine|the Philippines|Australia|New Zealand|Scotland",
  ),
  jobs: w(
    "nurse|software engineer|data analyst|teacher|architect|product manager|graphic designer|pharmacist|electrician|accountant|physiotherapist|journalist|chef|civil engineer|lawyer|veterinarian|UX researcher|marketing manager|dentist|translator|paramedic|social worker|carpenter|biologist|pilot|barista|photographer|librarian|midwife|sales manager",
  ),
  employers: w(
    "St Mary's Hospital|a fintech startup|the city council|a secondary school|a design studio|Shopify|a logistics company|a law firm|the university|a small bakery|a climate nonprofit|an airline|a game studio|a public radio station|a family-run vineyard|a biotech lab|a bike shop|a newspaper|a hotel chain|a solar installer",
  ),
  partners: w("wife|husband|partner"),
  children: w("daughter|son"),
  relatives: w("sister|brother|niece|nephew|grandmother|cousin|aunt|uncle"),
  likes: w(
    "trail running|bouldering|sourdough baking|jazz|Radiohead|board games|birdwatching|sea swimming|film photography|sci-fi novels|gardening|cycling|yoga|chess|pottery|karaoke|cold brew coffee|green tea|hiking in the Alps|surfing|podcasts about history|Studio Ghibli films|crossword puzzles|vinyl records|woodworking|salsa dancing|tennis|Formula 1|K-dramas|long-distance walking|camping|fly fishing|stand-up comedy|baking bread|sketching|opera|skiing|kayaking|mountain biking|indie video games",
  ),
  cuisines: w("Thai|Ethiopian|Japanese|Mexican|Lebanese|Korean|Georgian|Peruvian|Vietnamese|Sicilian|Indian|Portuguese|Turkish|Nigerian|Greek"),
  dishes: w("ramen|tacos|curry|dumplings|pasta|paella|pho|falafel|risotto|bibimbap|shakshuka|jollof rice|pastel de nata|moussaka|sushi"),
  dislikes: w(
    "olives|cilantro|mushrooms|early meetings|loud restaurants|horror films|small talk|blue cheese|crowded beaches|long phone calls|reality TV|raisins|spam calls|humid weather|flying overnight|cold showers|licorice|jazz fusion|winter driving|open-plan offices",
  ),
  preferences: w(
    "metric units|Celsius|aisle seats|window seats|short answers|bullet points|morning workouts|trains over planes|dark mode|paper books|early check-in|quiet hotels|direct flights|decaf after noon|cash-free payments|written instructions|video calls over phone calls|British spelling|24-hour time|plant-based milk",
  ),
  diets: w("vegetarian|vegan|pescatarian|gluten-free|lactose intolerant"),
  allergens: w("peanuts|shellfish|penicillin|cats|pollen|sesame|tree nuts|bee stings|latex|eggs"),
  instructions: w(
    "never use emojis|always answer in Portuguese|keep replies under five sentences|explain code step by step|cite sources|skip the pleasantries|use a friendly tone|suggest vegetarian options first|show prices in euros|always ask before booking",
  ),
  projects: w(
    "budgeting app|recipe website|home automation setup|mobile game|podcast|family cookbook|personal blog|birdsong classifier|climbing logbook|wedding website|language-learning bot|plant watering sensor|board game|portfolio site|travel journal|newsletter|kids' picture book|bike route planner|open-source CLI|photo archive",
  ),
  techs: w("Rust|Python|TypeScript|Go|Swift|Kotlin|Elixir|a Raspberry Pi|Flutter|Django|React Native|Arduino|Notion|Figma|Unity"),
  months: w("January|February|March|April|May|June|July|August|September|October|November|December"),
  activities: w(
    "run a marathon|run the half marathon|hike the Camino de Santiago|learn to sail|take a pottery course|visit their grandparents|renovate the kitchen|adopt a dog|go scuba diving|start a vegetable garden|move house|change jobs|take a sabbatical|cycle the coast|climb Kilimanjaro|see the northern lights|finish their thesis|open an online shop|buy a van|take the kids to Disneyland",
  ),
  languages: w("Japanese|Spanish|Portuguese|German|Mandarin|Italian|Korean|French|Arabic|Dutch|Swahili|Greek|Irish|Turkish|sign language"),
  studies: w(
    "data science|guitar|piano|watercolour painting|statistics|machine learning|photography|accounting|French cooking|first aid|public speaking|calligraphy|welding|astronomy|UX design",
  ),
  events: w("a marathon|a triathlon|a half marathon|a 100 km bike ride|a swim across the lake|a climbing trip|an ultramarathon|a charity walk|a boxing match|a trek in Nepal"),
  weekdays: w("Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday"),
  stays: w("a cabin|an Airbnb|a hostel|a boutique hotel|a campsite|a beach house|a ryokan|a farm stay"),
  tools: w("budget spreadsheet|bullet journal|habit tracker|reading list|packing checklist|meal plan|training log|gift list|mood diary|password manager"),
  purposes: w("household bills|the wedding|their running|the move|holiday planning|the kids' school|their side business|tax season|the garden|weekly groceries"),
  meetings: w("team standup|therapy session|piano lesson|five-a-side match|book club|parent-teacher meeting|climbing session|choir rehearsal|language exchange|volunteer shift"),
  tasks: w(
    "renew their passport|file their taxes|book the dentist|call their mother|water the plants|pay the rent|service the car|back up their photos|order contact lenses|send the invoices",
  ),
  products: w("laptop|e-bike|standing desk|espresso machine|running shoes|robot vacuum|camera lens|air purifier|electric car|mattress|headphones|tent"),
  books: w(
    "Dune|Middlemarch|The Overstory|Project Hail Mary|Pachinko|The Left Hand of Darkness|Sapiens|Piranesi|Educated|The Name of the Wind|Anna Karenina|The Three-Body Problem",
  ),
  genres: w("mysteries|fantasy|biographies|poetry|history books|thrillers|graphic novels|science writing"),
  pets: w("Biscuit|Luna|Pepper|Milo|Nala|Otis|Mochi|Ziggy|Hazel|Rocket"),
  animals: w("dog|cat|rabbit|parrot|tortoise|hamster"),
  care: w("a vet visit in the spring|a special diet|daily walks|a new harness|medication twice a day|a sitter in August"),
};

export type Rng = () => number;

/** Mulberry32: a small, fast PRNG, so every run seeds the same data. */
export function rng(seed: number): Rng {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export const pick = <T>(r: Rng, list: readonly T[]): T => list[Math.floor(r() * list.length)]!;
const int = (r: Rng, lo: number, hi: number) => lo + Math.floor(r() * (hi - lo + 1));

const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
const base62 = (r: Rng, n: number) => Array.from({ length: n }, () => BASE62[Math.floor(r() * 62)]).join("");
function uuid(r: Rng): string {
  const h = Array.from({ length: 32 }, () => Math.floor(r() * 16).toString(16));
  h[12] = "4";
  h[16] = "89ab"[Math.floor(r() * 4)]!;
  const s = h.join("");
  return `${s.slice(0, 8)}-${s.slice(8, 12)}-${s.slice(12, 16)}-${s.slice(16, 20)}-${s.slice(20)}`;
}

interface Persona {
  given: string;
  family: string;
  city: string;
  origin: string;
  job: string;
  employer: string;
  /** The people and pets most of the user's relationship facts restate. */
  household: { relation: string; name: string }[];
}

interface Fact {
  text: string;
  kind: string;
  box: string;
  key: string;
}

const fact = (kind: string, box: string, text: string, key: string): Fact => ({ kind, box, text, key });

type Generator = (r: Rng, p: Persona) => Fact;

const GENERATORS: Record<string, Generator> = {
  name: (r, p) => {
    const name = r() < 0.7 ? p.given : `${p.given} ${p.family}`;
    return fact("name", "identity", `Is called ${name}`, keyOf("name", name));
  },
  location: (r, p) => {
    if (r() < 0.3) return fact("location", "identity", `Is from ${p.origin}`, keyOf("location", p.origin, "from"));
    const city = r() < 0.7 ? p.city : pick(r, WORDS.cities);
    return fact("location", "identity", `Lives in ${city}`, keyOf("location", city, "live"));
  },
  work: (r, p) => {
    const job = r() < 0.7 ? p.job : pick(r, WORDS.jobs);
    const at = r() < 0.6 ? ` at ${r() < 0.7 ? p.employer : pick(r, WORDS.employers)}` : "";
    return fact("work", "work", `Works as ${article(job)} ${job}${at}`, keyOf("work", `${job}${at}`));
  },
  relationship: (r, p) => {
    const u = r();
    if (u < 0.1) return fact("relationship", "relationships", "Is married", keyOf("relationship", "married", "status"));
    if (u < 0.2) {
      const n = pick(r, ["two", "three", "four"]);
      return fact("relationship", "relationships", `Has ${n} kids`, keyOf("relationship", n, "kid"));
    }
    const { relation, name } = u < 0.75 ? pick(r, p.household) : { relation: pick(r, WORDS.relatives), name: pick(r, WORDS.given) };
    return fact("relationship", "relationships", `Has ${article(relation)} ${relation} named ${name}`, keyOf("relationship", name, relation));
  },
  like: (r) => {
    const u = r();
    const what =
      u < 0.5 ? pick(r, WORDS.likes) : u < 0.65 ? `${pick(r, WORDS.cuisines)} food` : u < 0.8 ? pick(r, WORDS.dishes) : `${pick(r, WORDS.genres)} like ${pick(r, WORDS.books)}`;
    return fact("like", "preferences", `Likes ${what}`, keyOf("like", what));
  },
  dislike: (r) => {
    const what = pick(r, WORDS.dislikes);
    return fact("dislike", "preferences", `Dislikes ${what}`, keyOf("dislike", what));
  },
  preference: (r) => {
    const u = r();
    const text =
      u < 0.45
        ? `Prefers ${pick(r, WORDS.preferences)}`
        : u < 0.6
          ? `Is ${pick(r, WORDS.diets)}`
          : u < 0.75
            ? `Is allergic to ${pick(r, WORDS.allergens)}`
            : `Wants the assistant to ${pick(r, WORDS.instructions)}`;
    return fact("preference", "preferences", text, keyOf("preference", text.replace(/^(Prefers|Is|Wants the assistant to) /, "")));
  },
  project: (r) => {
    const object = `${pick(r, ["a", "a small", "an open-source", "a shared"])} ${pick(r, WORDS.projects)} in ${pick(r, WORDS.techs)}`;
    const verb = pick(r, ["Is building", "Is working on", "Is developing"]);
    return fact("project", `projects/${slugOf(object)}`, `${verb} ${object}`, keyOf("project", object));
  },
  plan: (r, p) => {
    const u = r();
    const basis =
      u < 0.5
        ? `${pick(r, WORDS.activities)} in ${pick(r, WORDS.months)}`
        : u < 0.8
          ? `visit ${pick(r, WORDS.cities)} in ${pick(r, WORDS.months)}`
          : `move to ${pick(
              r,
              WORDS.cities.filter((c) => c !== p.city),
            )} next ${pick(r, ["spring", "summer", "autumn", "winter", "year"])}`;
    return fact("plan", "plans", `Plans to ${basis}`, keyOf("plan", basis));
  },
  other: (r) => {
    const u = r();
    const [verb, what] =
      u < 0.35
        ? ["learning", pick(r, WORDS.languages)]
        : u < 0.7
          ? ["studying", pick(r, WORDS.studies)]
          : u < 0.9
            ? ["training for", pick(r, WORDS.events)]
            : ["", `${int(r, 19, 78)} years old`];
    return fact("other", "other", verb ? `Is ${verb} ${what}` : `Is ${what}`, keyOf("other", `${verb} ${what}`));
  },
  note: (r, p) => {
    const templates: (() => string)[] = [
      () => `Asked for ${pick(r, WORDS.dishes)} recipes that serve ${int(r, 2, 12)}`,
      () => `Booked ${pick(r, WORDS.stays)} in ${pick(r, WORDS.cities)} for ${pick(r, WORDS.months)}`,
      () => `Keeps a ${pick(r, WORDS.tools)} for ${pick(r, WORDS.purposes)}`,
      () => `Has a ${pick(r, WORDS.meetings)} every ${pick(r, WORDS.weekdays)} at ${int(r, 7, 20)}:${pick(r, ["00", "30"])}`,
      () => `Wants a reminder to ${pick(r, WORDS.tasks)} before ${pick(r, WORDS.months)} ${int(r, 1, 28)}`,
      () => `Is comparing ${pick(r, WORDS.products)} options under ${int(r, 2, 30) * 50} euros`,
      () => `Reads ${pick(r, WORDS.genres)} before bed and is halfway through ${pick(r, WORDS.books)}`,
      () => `Said ${pick(r, WORDS.pets)} the ${pick(r, WORDS.animals)} needs ${pick(r, WORDS.care)}`,
      () => `Commutes to ${p.employer} by ${pick(r, ["bike", "train", "bus", "car", "ferry", "tram"])} and leaves at ${int(r, 6, 9)}:${pick(r, ["00", "15", "30", "45"])}`,
    ];
    const text = pick(r, templates)();
    return fact("note", "other", text, keyOf("note", text));
  },
};

/** How often each kind is written, out of 100. */
const KIND_WEIGHTS: [string, number][] = [
  ["note", 22],
  ["like", 14],
  ["preference", 10],
  ["dislike", 6],
  ["project", 9],
  ["plan", 9],
  ["other", 9],
  ["relationship", 8],
  ["work", 5],
  ["location", 5],
  ["name", 3],
];

function weightedKind(r: Rng): string {
  let u = r() * 100;
  for (const [kind, weight] of KIND_WEIGHTS) if ((u -= weight) < 0) return kind;
  return "note";
}

function persona(r: Rng): Persona {
  return {
    given: pick(r, WORDS.given),
    family: pick(r, WORDS.family),
    city: pick(r, WORDS.cities),
    origin: pick(r, WORDS.countries),
    job: pick(r, WORDS.jobs),
    employer: pick(r, WORDS.employers),
    household: [
      ...(r() < 0.7 ? [{ relation: pick(r, WORDS.partners), name: pick(r, WORDS.given) }] : []),
      ...Array.from({ length: int(r, 0, 3) }, () => ({ relation: pick(r, WORDS.children), name: pick(r, WORDS.given) })),
      ...(r() < 0.5 ? [{ relation: pick(r, ["dog", "cat"]), name: pick(r, WORDS.pets) }] : []),
      { relation: pick(r, WORDS.relatives), name: pick(r, WORDS.given) },
    ],
  };
}

/** Column-wise rows for one `INSERT … SELECT * FROM unnest(…)` statement. */
class Batch {
  private columns: unknown[][];
  constructor(
    private readonly opts: {
      sql: SeedSql;
      table: string;
      spec: [name: string, type: string][];
      counts: Record<string, number>;
      /** Flushed first: the tables this one's foreign keys point at. */
      before?: Batch;
    },
  ) {
    this.columns = opts.spec.map(() => []);
  }
  async add(...values: unknown[]): Promise<void> {
    values.forEach((v, i) => this.columns[i]!.push(v));
    if (this.columns[0]!.length >= BATCH_ROWS) await this.flush();
  }
  async flush(): Promise<void> {
    const { sql, table, spec, counts, before } = this.opts;
    await before?.flush();
    const n = this.columns[0]!.length;
    if (!n) return;
    const names = spec.map(([name]) => name).join(", ");
    const arrays = spec.map(([, type], i) => `$${i + 1}::${type}[]`).join(", ");
    await sql.query(`INSERT INTO ${table} (${names}) SELECT * FROM unnest(${arrays})`, this.columns);
    counts[table] = (counts[table] ?? 0) + n;
    this.columns = spec.map(() => []);
  }
}

/** Memory counts per user: the heavy user first, the rest varied around the mean and summing exactly. */
function memoryCounts(r: Rng, plan: SeedPlan): number[] {
  const others = plan.users - 1;
  const rest = plan.memories - plan.heavyMemories;
  const weights = Array.from({ length: others }, () => 0.3 + 1.4 * r());
  const total = weights.reduce((a, b) => a + b, 0);
  const counts = weights.map((x) => Math.floor((x / total) * rest));
  for (let i = 0, left = rest - counts.reduce((a, b) => a + b, 0); left > 0; i++, left--) counts[i % others]!++;
  return [plan.heavyMemories, ...counts];
}

/** Seeds users, approvals, imports, memories and composed profiles in one transaction. */
export async function seed(opts: { sql: SeedSql; target: SeedTarget; plan?: SeedPlan; seed?: number }): Promise<SeedResult> {
  const started = performance.now();
  const plan = opts.plan ?? DEFAULT_PLAN;
  const { sql, target } = opts;
  const r = rng(opts.seed ?? 20261122);
  const now = Math.floor(Date.now() / DAY_MS) * DAY_MS;
  const windowStart = now - WINDOW_DAYS * DAY_MS;
  const inWindow = (from = windowStart, to = now) => new Date(from + r() * (to - from)).toISOString();
  const counts: Record<string, number> = {};
  const batch = (table: string, spec: [string, string][], before?: Batch) => new Batch({ sql, table, spec, counts, before });

  const users = batch("users", [
    ["id", "uuid"],
    ["plane", '"Plane"'],
    ["developer_id", "uuid"],
    ["phone_scope", "text"],
    ["name", "text"],
    ["given_name", "text"],
    ["family_name", "text"],
    ["email", "text"],
    ["location", "text"],
    ["created_at", "timestamptz"],
  ]);
  const externalIds = batch(
    "external_user_ids",
    [
      ["id", "uuid"],
      ["developer_id", "uuid"],
      ["plane", '"Plane"'],
      ["external_id", "text"],
      ["user_id", "uuid"],
      ["created_at", "timestamptz"],
    ],
    users,
  );
  const approvals = batch(
    "agent_approvals",
    [
      ["id", "uuid"],
      ["user_id", "uuid"],
      ["agent_id", "uuid"],
      ["approved_at", "timestamptz"],
    ],
    externalIds,
  );
  const imports = batch(
    "imports",
    [
      ["id", "text"],
      ["user_id", "uuid"],
      ["provider", "text"],
      ["source", "text"],
      ["memory_count", "int4"],
      ["created_at", "timestamptz"],
    ],
    approvals,
  );
  const memories = batch(
    "memories",
    [
      ["id", "text"],
      ["user_id", "uuid"],
      ["source", "text"],
      ["agent_id", "uuid"],
      ["writer_id", "text"],
      ["written_by", "text"],
      ["box", "text"],
      ["kind", "text"],
      ["text", "text"],
      ["key", "text"],
      ["import_id", "text"],
      ["provenance", "jsonb"],
      ["learned_at", "timestamptz"],
      ["said_at", "timestamptz"],
    ],
    imports,
  );
  const profiles = batch(
    "user_profiles",
    [
      ["user_id", "uuid"],
      ["identity", "jsonb"],
      ["preferences", "jsonb"],
      ["highlights", "jsonb"],
      ["summary", "text"],
      ["source_counts", "jsonb"],
      ["version", "int4"],
      ["updated_at", "timestamptz"],
    ],
    memories,
  );

  const agentSource = `agents/${target.agentHandle}`;
  const seeded: SeededUser[] = [];
  await sql.query("BEGIN");
  try {
    const perUser = memoryCounts(r, plan);
    for (let u = 0; u < plan.users; u++) {
      const p = persona(r);
      const userId = uuid(r);
      const externalId = `bench-user-${String(u + 1).padStart(4, "0")}`;
      const joined = inWindow();
      const email = `${p.given}.${p.family}.${u}@example.com`.toLowerCase();
      await users.add(userId, "test", target.developerId, target.developerId, `${p.given} ${p.family}`, p.given, p.family, email, p.city, joined);
      await externalIds.add(uuid(r), target.developerId, "test", externalId, userId, joined);
      await approvals.add(uuid(r), userId, target.agentId, joined);

      const n = perUser[u]!;
      // One import per provider and MEMORIES_PER_IMPORT memories, at a time within the window.
      const importsOf = new Map<string, { id: string; at: number; count: number }[]>();
      for (const provider of IMPORT_PROVIDERS) {
        importsOf.set(
          provider,
          Array.from({ length: Math.max(1, Math.ceil((n * 0.3) / MEMORIES_PER_IMPORT)) }, () => ({
            id: `imp_${base62(r, 24)}`,
            at: windowStart + r() * (now - windowStart),
            count: 0,
          })),
        );
      }
      const taken = new Set<string>();
      const rows: unknown[][] = [];
      const written: { id: string; text: string; kind: string; key: string; saidAt: Date | null; learnedAt: Date; at: number }[] = [];
      for (let i = 0; i < n; i++) {
        const s = r();
        const provider = s < 0.35 ? "chatgpt" : s < 0.6 ? "claude" : null;
        const source = provider ? `imports/${provider}` : agentSource;
        let f = GENERATORS[weightedKind(r)]!(r, p);
        // Keys are unique per (user, source, key): retry, then fall back to the roomiest kind.
        for (let tries = 0; taken.has(`${source}\u0000${f.key}`); tries++) f = GENERATORS[tries < 8 ? weightedKind(r) : "note"]!(r, p);
        taken.add(`${source}\u0000${f.key}`);
        const id = `mem_${base62(r, 24)}`;
        let learnedAt: string;
        let saidAt: string | null = null;
        let importId: string | null = null;
        let provenance: Record<string, unknown>;
        if (provider) {
          const imp = pick(r, importsOf.get(provider)!);
          imp.count++;
          importId = imp.id;
          learnedAt = new Date(imp.at).toISOString();
          saidAt = inWindow(windowStart, imp.at);
          provenance = { via: "import", import_id: imp.id };
        } else {
          learnedAt = inWindow();
          provenance = r() < 0.5 ? { via: "remember" } : { via: "commit", message_index: int(r, 0, 19) };
        }
        rows.push([
          id,
          userId,
          source,
          provider ? null : target.agentId,
          provider ? "" : target.agentId,
          source,
          f.box,
          f.kind,
          f.text,
          f.key,
          importId,
          JSON.stringify(provenance),
          learnedAt,
          saidAt,
        ]);
        written.push({ id, text: f.text, kind: f.kind, key: f.key, saidAt: saidAt ? new Date(saidAt) : null, learnedAt: new Date(learnedAt), at: Date.parse(saidAt ?? learnedAt) });
      }
      // Imports first: a memory's import must exist when its batch is written.
      for (const provider of IMPORT_PROVIDERS) {
        for (const imp of importsOf.get(provider)!) {
          if (imp.count) await imports.add(imp.id, userId, provider, `imports/${provider}`, imp.count, new Date(imp.at).toISOString());
        }
      }
      for (const row of rows) await memories.add(...row);
      // The stored composition is what the service's own fold makes of these memories, oldest first.
      const c = fold(
        emptyComposition(),
        written.sort((a, b) => a.at - b.at),
      );
      const updated = new Date(Math.max(...written.map((m) => m.at), windowStart)).toISOString();
      const counts: Record<string, number> = {};
      for (const row of rows) counts[row[2] as string] = (counts[row[2] as string] ?? 0) + 1;
      await profiles.add(userId, JSON.stringify(c.identity), JSON.stringify(c.preferences), JSON.stringify(c.highlights), c.summary, JSON.stringify(counts), n, updated);
      seeded.push({ externalId, memories: n });
    }
    await profiles.flush();
    await sql.query("COMMIT");
  } catch (err) {
    await sql.query("ROLLBACK").catch(() => undefined);
    throw err;
  }
  // Fresh statistics and visibility maps, as autovacuum would leave a table that had grown this big.
  await sql.query("VACUUM ANALYZE users, external_user_ids, agent_approvals, imports, memories, user_profiles");
  return { users: seeded, heavy: seeded[0]!, counts, ms: performance.now() - started };
}

export function describeSeed(result: SeedResult): string {
  const rows = Object.entries(result.counts)
    .map(([table, n]) => `${table} ${n.toLocaleString("en")}`)
    .join(" · ");
  return `seeded in ${(result.ms / 1000).toFixed(1)} s: ${rows} (heavy user ${result.heavy.externalId}: ${result.heavy.memories.toLocaleString("en")} memories)`;
}

/**
 * The sandbox POST /v1/sandbox/provision answered (the fields the seed uses). Its synthetic user
 * keeps the profile provision gave it; the seeded users are new.
 */
export interface ProvisionedSandbox {
  agent: { handle: string };
  user: { id: string };
}

/** The developer and agent behind a provisioned sandbox user. */
async function sandboxTarget(sql: SeedSql, sandbox: ProvisionedSandbox): Promise<SeedTarget> {
  const { rows } = await sql.query(`SELECT u.developer_id, g.id AS agent_id FROM users u JOIN agents g ON g.developer_id = u.developer_id AND g.handle = $2 WHERE u.id = $1`, [
    sandbox.user.id,
    sandbox.agent.handle,
  ]);
  const row = rows[0] as { developer_id: string; agent_id: string } | undefined;
  if (!row) throw new Error(`No developer with agent ${sandbox.agent.handle} for user ${sandbox.user.id}.`);
  return { developerId: row.developer_id, agentId: row.agent_id, agentHandle: sandbox.agent.handle };
}

/** Seeds the bench schema of a running service over a connection of its own. */
export async function seedPostgres(opts: { databaseUrl: string; sandbox: ProvisionedSandbox; plan?: SeedPlan }): Promise<SeedResult> {
  const { connectionString, schema } = parsePostgresUrl(opts.databaseUrl);
  const client = new pg.Client({ connectionString, ...(schema ? { options: `-c search_path="${schema}",public` } : {}) });
  await client.connect();
  try {
    // Losing the seed in a crash costs nothing: it is a throw-away schema.
    await client.query("SET synchronous_commit = off");
    return await seed({ sql: client, target: await sandboxTarget(client, opts.sandbox), plan: opts.plan });
  } finally {
    await client.end();
  }
}

/**
 * Seeds an embedded data directory while no server holds it (PGlite has one connection), opened
 * the way the service opens it and under its lock.
 */
export async function seedPglite(opts: { dataDir: string; sandbox: ProvisionedSandbox; plan?: SeedPlan }): Promise<SeedResult> {
  const dir = path.resolve(opts.dataDir, "pglite");
  const release = lockDataDir(path.join(path.dirname(dir), "pglite.lock"));
  try {
    const db = await PGlite.create(dir, PGLITE_OPTIONS);
    try {
      return await seed({ sql: db, target: await sandboxTarget(db, opts.sandbox), plan: opts.plan });
    } finally {
      await db.close();
    }
  } finally {
    release();
  }
}
