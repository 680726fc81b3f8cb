"""The session graph (docs/architecture.md §3). `graph/` wires; `nodes/` act; `subagents/` are small graphs of their own.

plan → approve_submit → submit → monitor ⟲ ─┬─ explain_pending → (monitor | cancel_workflow → finish)
                                             ├─ finish (canceled by the person: final, never retried)
                                             └─ collect_tasks → read_logs (inline | Send ×N) → diagnose_fix
diagnose_fix → report → (offer_download → [download] → offer_app → [save_app]) → finish
             → submit (infra retry) | approve_resubmit → submit | ask_person → (submit | finish)
"""

from __future__ import annotations

from typing import Any, cast

from langgraph.graph import END, START, StateGraph

from runshepherd.graph import routes
from runshepherd.graph.context import Deps
from runshepherd.graph.state import SessionState
from runshepherd.nodes.approvals import approve_resubmit, approve_submit, ask_person
from runshepherd.nodes.diagnose_fix import diagnose_fix
from runshepherd.nodes.explain_pending import cancel_workflow, explain_pending
from runshepherd.nodes.fetch_logs import collect_tasks, fan_out, read_logs, read_logs_inline
from runshepherd.nodes.followups import download, finish, offer_app, offer_download, save_app
from runshepherd.nodes.monitor import monitor
from runshepherd.nodes.plan import plan
from runshepherd.nodes.report import report
from runshepherd.nodes.submit import submit


def build_graph(context_schema: type[Any] = Deps) -> StateGraph[SessionState, Any, SessionState, SessionState]:
    """The wiring. ``context_schema`` is Deps for the CLI's runner; LangGraph Server uses graph.server.ServerContext."""
    b: StateGraph[SessionState, Any, SessionState, SessionState] = StateGraph(
        SessionState, context_schema=context_schema
    )
    b.add_node("plan", plan)
    b.add_node("approve_submit", approve_submit)
    b.add_node("submit", submit)
    b.add_node("monitor", monitor)
    b.add_node("explain_pending", explain_pending)
    b.add_node("cancel_workflow", cancel_workflow)
    b.add_node("collect_tasks", collect_tasks)
    # A Send branch takes its own payload (ReadRequest), not SessionState; the overloads cannot express that.
    b.add_node("read_logs", cast(Any, read_logs))
    b.add_node("read_logs_inline", read_logs_inline)
    b.add_node("diagnose_fix", diagnose_fix)
    b.add_node("approve_resubmit", approve_resubmit)
    b.add_node("ask_person", ask_person)
    b.add_node("report", report)
    b.add_node("offer_download", offer_download)
    b.add_node("download", download)
    b.add_node("offer_app", offer_app)
    b.add_node("save_app", save_app)
    b.add_node("finish", finish)

    b.add_edge(START, "plan")
    b.add_conditional_edges("plan", routes.after_plan, ["approve_submit", "finish"])
    b.add_conditional_edges("monitor", routes.after_monitor, ["monitor", "explain_pending", "collect_tasks", "finish"])
    b.add_conditional_edges("collect_tasks", fan_out, ["read_logs", "read_logs_inline"])
    b.add_edge("read_logs", "diagnose_fix")
    b.add_edge("read_logs_inline", "diagnose_fix")
    b.add_edge("cancel_workflow", "finish")
    b.add_conditional_edges("report", routes.after_report, ["offer_download", "finish"])
    b.add_edge("download", "offer_app")
    b.add_edge("save_app", "finish")
    b.add_edge("finish", END)
    return b


def compile_graph(checkpointer: Any = None) -> Any:
    return build_graph().compile(checkpointer=checkpointer, name="runshepherd")
