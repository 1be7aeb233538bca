// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

// A short walk through the JSON API by a client generated from
// docs/openapi.json (openapi-typescript) and openapi-fetch, as an
// integrator would write it. contract_test.go type-checks it with
// tsc --strict against the types generated from the document as it is:
// each step compiles only when the document says what the service does,
// and each @ts-expect-error line compiles only when it refuses what the
// service refuses.

import createClient from "openapi-fetch";
import type { components, paths } from "./api";

type Event = components["schemas"]["Event"];
type Problem = components["schemas"]["Problem"];
type ExportedEvent = components["schemas"]["ExportedEvent"];

// A 304 is described (with the validator it matched), and a duplicate
// source's 409 carries the stored event's Location: these types do not
// exist unless the document says so.
type NotModified = paths["/api/events/{id}"]["get"]["responses"][304];
type ListNotModified = paths["/api/events"]["get"]["responses"][304];
type DuplicateLocation = paths["/api/events"]["post"]["responses"][409]["headers"]["Location"];
const notModifiedETag: NotModified["headers"]["ETag"] = 'W/"1"';
const listNotModified: ListNotModified["headers"]["ETag"] = notModifiedETag;
const duplicateAt: NonNullable<DuplicateLocation> = "/api/events/1";

export async function walk(baseUrl: string, token: string): Promise<string[]> {
  const seen: string[] = [listNotModified, duplicateAt];
  const api = createClient<paths>({ baseUrl, headers: { Authorization: `Bearer ${token}` } });

  // Create each kind without a status: the service starts it in its
  // kind's first status, so the document must not require one.
  const task = await api.POST("/api/events", {
    body: { kind: "task", title: "Send the report", due_at: "2026-11-27T17:00:00+09:00", priority: 2, project_tag: "work" },
    params: { header: { "Idempotency-Key": "walk-task-1" } },
  });
  const meeting = await api.POST("/api/events", {
    body: { kind: "calendar_event", title: "팀 회의", start_at: "2026-11-26T15:00:00+09:00", end_at: "2026-11-26T16:00:00+09:00" },
  });
  const log = await api.POST("/api/events", {
    body: { kind: "activity_log", title: "Code review", started_at: "2026-11-25T09:00:00+09:00", ended_at: "2026-11-25T10:15:00+09:00" },
  });
  for (const created of [task, meeting, log]) {
    if (created.error) {
      throw new Error(`create: ${created.error.status} ${created.error.detail}`);
    }
    seen.push(`${created.data.id} ${created.data.kind} ${created.data.status}`);
  }
  await api.POST("/api/events", {
    // @ts-expect-error the create body is JSON's, not a union with the form's: priority is a number
    body: { kind: "task", title: "Sent as a form would", priority: "2" },
  });
  await api.POST("/api/events", {
    // @ts-expect-error a task has no started_at: each kind's body has its own time fields
    body: { kind: "task", title: "A task", started_at: "2026-11-25T09:00:00+09:00" },
  });

  // The same source twice: the second is a 409 whose Location names the
  // event already stored.
  const source = { kind: "task", title: "From the tracker", source: "issue_tracker", source_ref: "EV-57" } as const;
  await api.POST("/api/events", { body: source });
  const again = await api.POST("/api/events", { body: source });
  if (again.error && again.response.status === 409) {
    const problem: Problem = again.error;
    seen.push(`${problem.type} ${problem.existing_id ?? ""} ${again.response.headers.get("Location") ?? ""}`);
  }

  // A listing with array filters (repeated keys, as openapi-fetch sends them).
  const page = await api.GET("/api/events", {
    params: { query: { kind: ["task", "calendar_event"], status: ["planned", "tentative"], tz: "Asia/Seoul", limit: 50 } },
  });
  if (page.error) {
    throw new Error(`list: ${page.error.detail}`);
  }
  const first: Event | undefined = page.data.items[0];
  if (first === undefined || task.data === undefined) {
    return seen;
  }
  const id = task.data.id;

  // Read it, then again with its ETag: 304 and no body while it is unchanged.
  const read = await api.GET("/api/events/{id}", { params: { path: { id } } });
  const etag = read.response.headers.get("ETag") ?? "";
  const unchanged = await api.GET("/api/events/{id}", { params: { path: { id }, header: { "If-None-Match": etag } } });
  seen.push(`${unchanged.response.status === 304 ? "not modified" : "changed"}`);

  // A PATCH with If-Match: a stale tag is 412, nothing written.
  const patched = await api.PATCH("/api/events/{id}", {
    params: { path: { id }, header: { "If-Match": etag } },
    body: { title: "Send the final report", labels: ["보고서"] },
  });
  if (patched.error) {
    throw new Error(`patch: ${patched.error.status} ${patched.error.type}`);
  }
  seen.push(patched.data.title);

  // A lifecycle step, then one the new status does not allow: the 409
  // names the status, its code and what is allowed now.
  const done = await api.POST("/api/events/{id}/complete", { params: { path: { id } }, body: {} });
  seen.push(done.data?.status ?? "");
  const twice = await api.POST("/api/events/{id}/complete", { params: { path: { id } }, body: {} });
  if (twice.error && twice.response.status === 409) {
    const step = twice.error.errors.find((e) => e.code === "illegal_step");
    seen.push(`${step?.field} ${twice.error.event_status} ${(twice.error.allowed_operations ?? []).join(",")}`);
  }
  await api.POST("/api/events/{id}/defer", { params: { path: { id } }, body: { defer_until: "2026-12-01T09:00:00+09:00" } });

  // Sync by the change token: list what changed after it, keep next_token.
  let changes = "";
  for (;;) {
    const sync = await api.GET("/api/events", { params: { query: { changes_after: changes, limit: 100 } } });
    if (sync.error || sync.data.next_token === undefined) {
      break;
    }
    for (const e of sync.data.items) {
      seen.push(`${e.id} ${e.updated_at}`);
    }
    if (sync.data.items.length === 0 || sync.data.next_token === changes) {
      break;
    }
    changes = sync.data.next_token;
  }

  // The NDJSON export: a line per event, each with its history.
  const file = await api.GET("/api/events/export", { params: { query: { format: "ndjson", kind: ["task"] } }, parseAs: "text" });
  for (const line of (file.data ?? "").split("\n").filter((l) => l !== "")) {
    const e = JSON.parse(line) as ExportedEvent;
    seen.push(`${e.id} ${e.history.map((h) => `${h.change_kind}:${h.status_after}`).join(" ")}`);
  }
  return seen;
}
