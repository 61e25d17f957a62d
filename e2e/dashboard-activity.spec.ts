// What a developer's keys did, on the dashboard in Chromium: a new developer signs up, makes a test
// key and an agent, calls the API, and finds the first request in the request log (by its
// X-Request-Id too), sees it counted in usage, follows a bulk import job to its end as it runs, and
// revokes a message line and sets the partner-session order — all without the command-line tool.
import { expect, test } from "@playwright/test";
import { signUpDeveloper } from "./support/dashboard";
import { noSeriousViolations, PHONE, shoot, tabTo } from "./support/pages";

test.use({ viewport: PHONE });

test("a new developer sees their first requests in the log and in usage, and follows an import job", async ({ page, request }) => {
  // Sign-up, requests, the log, usage and an import job followed to its end: longer than one test's default.
  test.setTimeout(240_000);
  const stamp = Date.now().toString(36);
  await signUpDeveloper(page, `activity-${stamp}@example.com`, "Harbour Apps");
  const nav = page.getByRole("navigation", { name: "Dashboard" });

  // Nothing yet: the log says how requests get there.
  await nav.getByRole("link", { name: "Request log" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Request log");
  await expect(page.getByTestId("requests-empty")).toHaveText(/No live requests yet\. Call the API with a live key/);
  await noSeriousViolations(page);
  await shoot(page, "dashboard-activity-01-log-empty");

  // A test key and an agent, made on the dashboard.
  await nav.getByRole("link", { name: "API keys" }).click();
  await page.getByLabel("Kind").selectOption("secret");
  await page.getByLabel("Plane").selectOption("test");
  await page.getByRole("button", { name: "Create key" }).click();
  const key = await page.getByTestId("secret-value").innerText();
  expect(key).toMatch(/^sk_test_/);
  await nav.getByRole("link", { name: "Agents" }).click();
  const handle = `harbour-${stamp}`;
  await page.getByLabel("Handle").fill(handle);
  await page.getByLabel("Display name (optional)").fill("Harbour");
  await page.getByRole("button", { name: "Create agent" }).click();
  await expect(page.getByTestId("agent-row")).toHaveCount(1);

  // The first requests: one that works, one refused.
  const first = await request.get("/v1/agents", { headers: { "x-api-key": key } });
  expect(first.status()).toBe(200);
  const firstId = first.headers()["x-request-id"]!;
  expect(firstId).toMatch(/^req_/);
  const refused = await request.get("/v1/profile", { headers: { "x-api-key": key, "x-agent": handle } });
  expect(refused.status()).toBeGreaterThanOrEqual(400);

  // The log opens on the test plane, where the newest request is.
  await nav.getByRole("link", { name: "Request log" }).click();
  const rows = page.getByTestId("request-row");
  await expect(rows).toHaveCount(2);
  await expect(rows.nth(1)).toContainText("GET /v1/agents");
  await expect(rows.nth(1)).toContainText("200");
  await expect(rows.nth(1)).toContainText(firstId);
  await expect(rows.nth(0)).toContainText(`GET /v1/profile`);
  await expect(page.getByRole("link", { name: "Test", exact: true })).toHaveAttribute("aria-current", "true");
  await noSeriousViolations(page);
  await shoot(page, "dashboard-activity-02-log");

  // Searched by the id its answer carried, from the keyboard.
  await page.goto("/dashboard/requests");
  await tabTo(page, page.getByLabel("Request id"));
  await page.keyboard.type(firstId);
  await page.keyboard.press("Enter");
  const detail = page.getByTestId("request-detail");
  await expect(detail).toContainText(firstId);
  await expect(detail).toContainText("GET /v1/agents");
  await expect(detail).toContainText("test");
  await noSeriousViolations(page);
  await shoot(page, "dashboard-activity-03-log-found");
  await page.getByLabel("Request id").fill("req_notarealrequest000");
  await page.getByLabel("Request id").press("Enter");
  await expect(page.getByTestId("request-not-found")).toContainText("No request req_notarealrequest000 in this account.");

  // Only the errors.
  await page.getByLabel("Status").selectOption("error");
  await page.getByRole("button", { name: "Apply" }).click();
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText("GET /v1/profile");

  // Usage: both requests counted, one an error, per day and per route.
  await nav.getByRole("link", { name: "Usage" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Usage");
  await expect(page.getByTestId("usage-totals")).toContainText("Requests2");
  await expect(page.getByTestId("usage-totals")).toContainText("Errors1");
  await expect(page.getByTestId("usage-totals")).toContainText("50%");
  await expect(page.getByRole("figure")).toHaveAccessibleDescription(/2 requests from .*, 1 of them an error \(50%\)\./);
  await expect(page.getByTestId("usage-routes")).toContainText("GET /v1/agents");
  await noSeriousViolations(page);
  await shoot(page, "dashboard-activity-04-usage");
  // One route alone: its chart, then its requests in the log.
  await page.getByTestId("usage-routes").getByRole("link", { name: "GET /v1/agents" }).click();
  await expect(page.getByTestId("usage-route")).toContainText("Only GET /v1/agents");
  await expect(page.getByTestId("usage-totals")).toContainText("Requests1");
  await expect(page.getByRole("figure")).toHaveAccessibleDescription(/^1 request from .*\.$/);
  await page.getByRole("link", { name: "Its requests in the log" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Request log");
  await expect(rows).toHaveCount(1);

  // Bulk import: the tier, then a job followed live to its end.
  await nav.getByRole("link", { name: "Imports" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Bulk import");
  await expect(page.getByRole("heading", { name: "Free tier" })).toBeVisible();
  await noSeriousViolations(page);
  await shoot(page, "dashboard-activity-05-imports-empty");
  const users = Array.from({ length: 12 }, (_, i) => ({
    externalId: `harbour-user-${i}`,
    conversations: [{ id: "c1", messages: [{ role: "user", content: `I live in Porto and I am learning to sail, lesson ${i}.` }] }],
  }));
  const submitted = await request.post("/v1/import/profiles", { headers: { "x-api-key": key, "x-agent": handle }, data: { idempotencyKey: `harbour-${stamp}`, users } });
  expect(submitted.status()).toBe(202);
  const jobId = (await submitted.json()).id as string;
  await page.goto("/dashboard/imports?plane=test");
  const job = page.locator(`[data-job-id="${jobId}"]`);
  await expect(job).toBeVisible();
  // No reload: the page updates itself until the job completes.
  await expect(job).toHaveAttribute("data-status", "completed", { timeout: 60_000 });
  await expect(job.getByTestId("import-job-progress")).toHaveText("12 of 12 users done");
  await expect(job.getByRole("progressbar")).toHaveAttribute("aria-valuenow", "12");
  await expect(page.getByTestId("import-quota")).toContainText("12 of 100");
  await expect(page.getByTestId("live-refresh")).toHaveCount(0);
  await noSeriousViolations(page);
  await shoot(page, "dashboard-activity-06-imports");

  // A message line registered over the API, revoked here: it is gone from the API's list too.
  const line = await request.post("/v1/auth/sign-in/message-lines", {
    headers: { "x-api-key": key, "x-agent": handle },
    data: { channel: "sms", phone: "+14155550187", label: "Concierge" },
  });
  expect(line.status()).toBe(201);
  await nav.getByRole("link", { name: "Sign-in links" }).click();
  await expect(page.getByTestId("line-row")).toContainText("number ending in 0187");
  await page.getByRole("button", { name: "Revoke the test SMS line ending in 0187" }).click();
  // The row goes with the line; the answer is said at the top of the page, where the focus moves.
  await expect(page.getByTestId("line-row")).toHaveCount(0);
  await expect(page.getByTestId("dashboard-notice")).toHaveText("The line ending in 0187 is revoked. Its message links stopped working now.");
  await expect(page.getByTestId("dashboard-notice")).toBeFocused();
  const lines = await request.get("/v1/auth/sign-in/message-lines", { headers: { "x-api-key": key, "x-agent": handle } });
  expect(lines.status()).toBe(200);
  expect((await lines.json()).lines).toEqual([]);

  // The partner-session order, chosen with the keyboard.
  await page.getByLabel("The phone number and its code, then the import screen").check();
  await page.getByRole("button", { name: "Save order" }).click();
  await expect(page.getByText("Linked-account sessions now ask for the phone number first.")).toBeVisible();
  await page.reload();
  await expect(page.getByLabel("The phone number and its code, then the import screen")).toBeChecked();
  await noSeriousViolations(page);
  await shoot(page, "dashboard-activity-07-sign-in-links");
});
