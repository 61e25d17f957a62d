// Word lists the built-in distiller's rules consult: jobs, relations, diets, time phrases, stop words.

/** Head nouns of occupations; "I'm a <modifiers> <head>" is a job only when the head is here. */
export const JOB_HEADS: ReadonlySet<string> = new Set(
  `engineer developer programmer coder designer architect manager director analyst scientist researcher
  consultant accountant bookkeeper auditor lawyer attorney solicitor barrister paralegal judge doctor physician
  surgeon gp nurse midwife paramedic dentist hygienist pharmacist therapist physiotherapist physio psychologist
  psychiatrist counsellor counselor vet veterinarian optician optometrist radiographer sonographer teacher tutor
  lecturer professor principal headteacher librarian student undergrad undergraduate postdoc intern apprentice chef
  cook baker butcher barista bartender waiter waitress cashier carpenter joiner plumber electrician mechanic
  builder welder roofer tiler decorator gardener landscaper farmer fisherman driver pilot sailor soldier officer
  firefighter detective journalist reporter writer author editor copywriter photographer filmmaker videographer
  artist illustrator animator musician singer songwriter composer actor actress dancer producer marketer recruiter
  founder co-founder cofounder ceo cto cfo coo entrepreneur freelancer contractor administrator secretary
  receptionist clerk banker trader economist statistician mathematician physicist chemist biologist geologist
  technician tester sysadmin carer caregiver nanny homemaker housewife househusband pastor priest rabbi imam
  podcaster constable sergeant dev warder groomer sparky detailer shearer journeyman reservist cop novelist
  diplomat politician translator interpreter coach trainer instructor lifeguard realtor broker strategist blogger
  streamer youtuber surveyor porter guide crew drummer guitarist bassist painter captain defender sre
  horticulturist trucker tech cleaner housekeeper janitor guard courier postman miner machinist operator
  dispatcher planner stylist hairdresser barber beautician florist tailor jeweller jeweler potter sculptor
  dj comedian athlete footballer ranger zookeeper pharmacologist epidemiologist dietitian nutritionist
  underwriter actuary estimator inspector supervisor foreman lead`.split(/\s+/),
);

/** Words before a job head that make "I'm a … <head>" an opinion or a past, not a current job. */
export const NOT_JOB_MODIFIERS: ReadonlySet<string> = new Set(
  `good great bad terrible awful decent lousy amateur aspiring wannabe hobby home keen avid big huge total real
  bit little kind sort failed former ex frustrated better worse best worst`.split(/\s+/),
);

export type RelationGroup = "partner" | "child" | "sibling" | "grandchild" | "pet" | "parent" | "extended";

/** Relation word → [canonical key, group]. Parents and extended family count only when named. */
export const RELATIONS: Record<string, [string, RelationGroup]> = {
  wife: ["wife", "partner"],
  husband: ["husband", "partner"],
  partner: ["partner", "partner"],
  spouse: ["spouse", "partner"],
  boyfriend: ["boyfriend", "partner"],
  girlfriend: ["girlfriend", "partner"],
  bf: ["boyfriend", "partner"],
  gf: ["girlfriend", "partner"],
  hubby: ["husband", "partner"],
  fiance: ["fiance", "partner"],
  fiancé: ["fiance", "partner"],
  fiancee: ["fiance", "partner"],
  fiancée: ["fiance", "partner"],
  son: ["son", "child"],
  daughter: ["daughter", "child"],
  kid: ["child", "child"],
  child: ["child", "child"],
  children: ["child", "child"],
  baby: ["baby", "child"],
  toddler: ["child", "child"],
  stepson: ["stepson", "child"],
  stepdaughter: ["stepdaughter", "child"],
  twin: ["twin", "child"],
  brother: ["brother", "sibling"],
  sister: ["sister", "sibling"],
  sibling: ["sibling", "sibling"],
  grandson: ["grandson", "grandchild"],
  granddaughter: ["granddaughter", "grandchild"],
  grandchild: ["grandchild", "grandchild"],
  grandchildren: ["grandchild", "grandchild"],
  grandkid: ["grandchild", "grandchild"],
  dog: ["dog", "pet"],
  puppy: ["dog", "pet"],
  pup: ["dog", "pet"],
  mutt: ["dog", "pet"],
  cat: ["cat", "pet"],
  kitten: ["cat", "pet"],
  parrot: ["parrot", "pet"],
  rabbit: ["rabbit", "pet"],
  bunny: ["rabbit", "pet"],
  hamster: ["hamster", "pet"],
  horse: ["horse", "pet"],
  tortoise: ["tortoise", "pet"],
  turtle: ["turtle", "pet"],
  lizard: ["lizard", "pet"],
  gecko: ["gecko", "pet"],
  snake: ["snake", "pet"],
  "guinea pig": ["guinea pig", "pet"],
  rat: ["rat", "pet"],
  ferret: ["ferret", "pet"],
  budgie: ["budgie", "pet"],
  axolotl: ["axolotl", "pet"],
  goat: ["goat", "pet"],
  donkey: ["donkey", "pet"],
  pony: ["pony", "pet"],
  hen: ["hen", "pet"],
  mother: ["mother", "parent"],
  mom: ["mother", "parent"],
  mum: ["mother", "parent"],
  father: ["father", "parent"],
  dad: ["father", "parent"],
  mam: ["mother", "parent"],
  parent: ["parent", "parent"],
  stepdad: ["stepfather", "parent"],
  stepfather: ["stepfather", "parent"],
  stepmum: ["stepmother", "parent"],
  stepmom: ["stepmother", "parent"],
  stepmother: ["stepmother", "parent"],
  gran: ["grandmother", "extended"],
  nan: ["grandmother", "extended"],
  nana: ["grandmother", "extended"],
  grandad: ["grandfather", "extended"],
  granddad: ["grandfather", "extended"],
  grandparent: ["grandparent", "extended"],
  grandmother: ["grandmother", "extended"],
  grandma: ["grandmother", "extended"],
  granny: ["grandmother", "extended"],
  grandfather: ["grandfather", "extended"],
  grandpa: ["grandfather", "extended"],
  aunt: ["aunt", "extended"],
  uncle: ["uncle", "extended"],
  cousin: ["cousin", "extended"],
  niece: ["niece", "extended"],
  nephew: ["nephew", "extended"],
};

/** Plural relation words → singular. */
export const RELATION_PLURALS: Record<string, string> = {
  kids: "kid",
  sons: "son",
  daughters: "daughter",
  brothers: "brother",
  sisters: "sister",
  siblings: "sibling",
  twins: "twin",
  grandsons: "grandson",
  granddaughters: "granddaughter",
  grandkids: "grandkid",
  dogs: "dog",
  puppies: "puppy",
  pups: "pup",
  mutts: "mutt",
  cats: "cat",
  kittens: "kitten",
  parrots: "parrot",
  rabbits: "rabbit",
  hamsters: "hamster",
  turtles: "turtle",
  lizards: "lizard",
  geckos: "gecko",
  snakes: "snake",
  "guinea pigs": "guinea pig",
  rats: "rat",
  ferrets: "ferret",
  budgies: "budgie",
  axolotls: "axolotl",
  goats: "goat",
  donkeys: "donkey",
  ponies: "pony",
  hens: "hen",
  horses: "horse",
  babies: "baby",
  toddlers: "toddler",
  cousins: "cousin",
  parents: "parent",
  grandparents: "grandparent",
  nieces: "niece",
  nephews: "nephew",
};

export const NUMBER_WORDS: ReadonlySet<string> = new Set("a an one two three four five six seven eight nine ten".split(" "));

/** Diets and intolerances stated as "I'm <word>". */
export const DIETS: Record<string, string> = {
  vegetarian: "Is vegetarian",
  veggie: "Is vegetarian",
  vegan: "Is vegan",
  pescatarian: "Is pescatarian",
  pescetarian: "Is pescatarian",
  keto: "Eats keto",
  paleo: "Eats paleo",
  "gluten-free": "Eats gluten-free",
  "gluten free": "Eats gluten-free",
  "dairy-free": "Eats dairy-free",
  "dairy free": "Eats dairy-free",
  "lactose intolerant": "Is lactose intolerant",
  "lactose-intolerant": "Is lactose intolerant",
  coeliac: "Is coeliac",
  celiac: "Is coeliac",
  diabetic: "Is diabetic",
  kosher: "Keeps kosher",
  halal: "Eats halal",
  teetotal: "Doesn't drink alcohol",
  sober: "Doesn't drink alcohol",
};

/** Diets that exclude each other: a later one replaces an earlier one. */
export const EXCLUSIVE_DIETS: ReadonlySet<string> = new Set(["Is vegetarian", "Is vegan", "Is pescatarian"]);

/** Verbs an instruction to the assistant starts with ("always answer in …", "never use …"). */
export const INSTRUCTION_VERBS: ReadonlySet<string> = new Set(
  `use answer reply respond write give include show add suggest recommend ask start end say call mention put
  format explain assume make keep provide send cite talk speak remind check double-check tell offer sign
  spell convert round list quote translate summarise summarize address refer`.split(/\s+/),
);

/** Phrases that make a plan a plan: a future time. */
export const FUTURE_TIME =
  /\b(?:next (?:week|month|year|summer|spring|autumn|fall|winter|semester|term|season|january|february|march|april|may|june|july|august|september|october|november|december)|this (?:summer|spring|autumn|fall|winter|year|coming \w+)|later this (?:year|month)|in (?:january|february|march|april|may|june|july|august|september|october|november|december|spring|summer|autumn|the fall|the spring|the summer|the autumn|winter|20[2-9]\d|a (?:few|couple of) (?:weeks|months|years)|\d+ (?:weeks|months|years)|a (?:month|year)|(?:two|three|four|five|six) (?:weeks|months|years))|by (?:the end of (?:the|this|next) (?:year|month|summer)|\d{4}|january|february|march|april|may|june|july|august|september|october|november|december)|(?:for|from|on|until|till|this|over|around|early|late|mid)[ -](?:the\s+)?(?:\d{1,2}(?:st|nd|rd|th)?\s+(?:of\s+)?)?(?:january|february|march|april|may|june|july|august|september|october|november|december)|next (?:week|month|year)end|(?:for|at|over|this|next)\s+(?:christmas|xmas|easter|thanksgiving|new year|ramadan|eid|diwali|hanukkah|the holidays)|someday|one day|eventually|after (?:i graduate|graduation)|(?:january|february|march|april|may|june|july|august|september|october|november|december) \d{1,2}(?:st|nd|rd|th)?(?!\d|,? \d{4})|\d{1,2}(?:st|nd|rd|th)? (?:of )?(?:january|february|march|april|may|june|july|august|september|october|november|december)(?!,? \d{4}))\b/i;

/** Time phrases that make a statement about today, not about the user. */
export const TRANSIENT_TIME =
  /\b(?:today|tonight|tomorrow|this (?:morning|afternoon|evening|weekend)|later today|in a (?:bit|minute|sec|second|moment)|right now|at the moment|atm)\b/i;

/** Words that open a question. */
export const QUESTION_OPENERS =
  /^(?:what|what's|whats|how|how's|why|where|where's|when|which|who|whom|whose|can|could|would|should|shall|will|do|does|did|is|are|am|was|were|any|anything|have you|has|isn't|aren't|don't|doesn't|didn't|won't|wouldn't)\b/i;

/** Words that open a hypothetical: the rest of the sentence describes no real fact. */
export const HYPOTHETICAL_OPENERS =
  /^(?:if|imagine|imagining|suppose|supposing|pretend|pretending|hypothetically|assuming|assume|what if|let's say|lets say|say that|in a world where|in theory|in a story|in this story|in the story)\b/i;

/** Whole messages that set up fiction or role-play: nothing in them is about the user. */
export const FICTION_MARKERS = /\b(?:role[- ]?play|in character|my character|pretend (?:to be|you're|you are|i'm|i am)|write (?:a|me a) (?:story|poem|scene))\b/i;

/** Discourse words stripped from a clause's start before the rules look at it. */
export const LEAD_WORDS =
  /^(?:oh|ok|okay|so|well|also|btw|by the way|and|but|plus|actually|honestly|yeah|yes|yep|yup|no(?=\s*[,!.…]|\s*$|\s+(?:i|i'm|im|i've|we|we're|it|it's|that|my|our|thanks|worries|problem|way)\b)|nope|nah|hi there|hey there|hello there|hi|hey|hello|hiya|lol|haha|hmm|um|umm|fyi|anyway|anyways|though|because|cause|cuz|since|now|just so you know|for context|for reference|quick note|ps|p\.s\.|tbh|to be honest|just fyi|oh and|and also|also also|currently|these days|right now)\b[\s,]*/i;

/** Words that cannot be a person's name even when capitalised. */
export const NOT_NAMES: ReadonlySet<string> = new Set(
  `i i'm im a an the and but or so is was are not no yes ok okay fine good great well sorry sure here back done
  new just still also really very quite too home away out in on at from with tired busy happy sad excited glad
  curious confused sick ill bored hungry afraid scared worried stuck lost interested trying looking going
  working thinking wondering british american canadian english french german spanish italian portuguese
  brazilian mexican indian chinese japanese korean irish scottish welsh australian dutch swedish norwegian
  danish finnish polish russian ukrainian nigerian kenyan egyptian turkish greek jewish christian catholic
  muslim hindu buddhist atheist vegan vegetarian gay straight single married divorced retired monday tuesday
  wednesday thursday friday saturday sunday mondays tuesdays wednesdays thursdays fridays saturdays sundays
  weekends jain sikh methodist anglican baptist orthodox protestant mormon pagan january february march april may june july august september
  october november december this that it there he she they we you my your our his her their nobody everyone
  someone`.split(/\s+/),
);

/** Words a dedupe key leaves out. */
export const KEY_STOP_WORDS: ReadonlySet<string> = new Set(
  `a an the my their them they our your to of in on at for with and or really very so just also some is are be
  am i me it this that about too lot much more most quite all any named called who which`.split(/\s+/),
);
