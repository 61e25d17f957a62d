// The home page: a sign-in button, or who is signed in (from the ID token) and their profile (read on
// the server with the access token).
import { signedIn, signIn, signOut, type SignedIn } from "../auth";
import { readProfile } from "../profile";

// Each request reads the session cookie and the profile as they are now.
export const dynamic = "force-dynamic";

async function signInWithService() {
  "use server";
  await signIn("profile-service", { redirectTo: "/" });
}

async function signOutOfBasecamp() {
  "use server";
  await signOut({ redirectTo: "/" });
}

function SignedOut() {
  return (
    <section aria-labelledby="sign-in-heading">
      <h2 id="sign-in-heading">Sign in</h2>
      <p>Sign in with your profile so Basecamp can plan around what you already told your assistants.</p>
      <form action={signInWithService}>
        <button type="submit">Sign in with Profile Service</button>
      </form>
    </section>
  );
}

async function Account({ person }: { person: SignedIn }) {
  const read = await readProfile(person.accessToken);
  const name = person.name ?? ("profile" in read ? read.profile.name : null);
  return (
    <>
      <section aria-labelledby="account-heading">
        <h2 id="account-heading">Signed in as {name ?? "(no name shared)"}</h2>
        <dl>
          <dt>Subject (sub)</dt>
          <dd data-testid="sub">{person.sub}</dd>
          <dt>Email</dt>
          <dd data-testid="email">{person.email ?? "none used (not verified)"}</dd>
          <dt>email_verified in the ID token</dt>
          <dd data-testid="email-verified">{String(person.emailVerified)}</dd>
        </dl>
        <form action={signOutOfBasecamp}>
          <button type="submit">Sign out</button>
        </form>
      </section>
      <section aria-labelledby="profile-heading">
        <h2 id="profile-heading">Your profile</h2>
        {"error" in read ? (
          <p role="alert">{read.error}</p>
        ) : (
          <>
            <h3 id="summary-heading">Summary</h3>
            <p data-testid="summary">{read.profile.summary || "(no summary yet)"}</p>
            <h3 id="facts-heading">What Basecamp knows about you</h3>
            {read.profile.facts.length > 0 ? (
              <ul aria-labelledby="facts-heading">
                {read.profile.facts.map((fact, i) => (
                  <li key={`${i}:${fact}`}>{fact}</li>
                ))}
              </ul>
            ) : (
              <p>Nothing yet.</p>
            )}
          </>
        )}
      </section>
    </>
  );
}

export default async function Home() {
  const person = await signedIn();
  return (
    <main>
      <h1>Basecamp</h1>
      {person ? <Account person={person} /> : <SignedOut />}
    </main>
  );
}
