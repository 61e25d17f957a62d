// The apps the account page lists: each app a person may connect (and any they did connect), with its
// state here, the address it is connected as, and the facts it taught the profile.
import { APP_READS, appFactsOf, type AppFacts } from "../connectors/memories/facts";
import { connectionsOf } from "../connectors/connections";
import { appState, appConnectsInDevelopment, type AppState } from "../connectors/providers";
import { appsListedFor, isApp, type App } from "../catalogue";

export interface AccountApp {
  app: App;
  state: AppState;
  /** The address the app is connected as, when the provider said it. */
  accountEmail: string | null;
  /** Whether a connection row exists (connected, or needing reconnection): it can be disconnected. */
  held: boolean;
  /** Whether it connects through the development provider here. */
  inDevelopment: boolean;
  /** What the service reads from it, when it is read for memories. */
  reads: string | null;
  facts: AppFacts["facts"];
}

export async function accountApps(userId: string): Promise<AccountApp[]> {
  const connections = await connectionsOf(userId);
  const learned = await appFactsOf(
    userId,
    connections.filter((c) => c.status === "active" && isApp(c.app)).map((c) => c.app as App),
  );
  return appsListedFor(connections.map((c) => c.app)).map((app) => {
    const c = connections.find((x) => x.app === app);
    return {
      app,
      state: appState(app, c),
      accountEmail: c?.accountEmail ?? null,
      held: !!c,
      inDevelopment: appConnectsInDevelopment(app),
      reads: APP_READS[app] ?? null,
      facts: learned.find((l) => l.app === app)?.facts ?? [],
    };
  });
}
