// The hosted flow's screens: one component per screen, chosen by the view lib/flow/views.ts computed.
// The flow page passes the flow's server actions bound to its id; the development screen gallery passes
// actions that change nothing. Components never import from app/.
import type { FlowScreenView } from "@/lib/flow/views";
import type { FlowActions } from "./actions";
import { AppsScreen, CapabilityScreen } from "./screens/apps";
import { CodeScreen } from "./screens/code";
import { EndedScreen } from "./screens/ended";
import { ImportScreen } from "./screens/import";
import { MailboxScreen } from "./screens/mailbox";
import { PhoneScreen } from "./screens/phone";
import { ReceiptScreen } from "./screens/receipt";

export function FlowScreen({ view, actions }: { view: FlowScreenView; actions: FlowActions }) {
  switch (view.screen) {
    case "import":
      return <ImportScreen view={view} actions={actions} />;
    case "phone":
      return <PhoneScreen view={view} actions={actions} />;
    case "code":
      return <CodeScreen view={view} actions={actions} />;
    case "mailbox":
      return <MailboxScreen view={view} actions={actions} />;
    case "app":
    case "apps":
      return <AppsScreen view={view} actions={actions} />;
    case "capability":
      return <CapabilityScreen view={view} actions={actions} />;
    case "receipt":
      return <ReceiptScreen view={view} actions={actions} />;
    case "ended":
      return <EndedScreen view={view} />;
  }
}
