/** The policy and manifest lines the demo adds to its copy of the sample: the MCP tool's action and its mapping. */
export const SUPPORT_POLICY = `  support.issue_credit:
    effect: "credit:{account_id}:{amount}"
    rules:
      # Small goodwill credits run on their own.
      - when: { amount_gte: 1, amount_lte: 500 }
        decision: allow
      # Up to 50.00 a person approves.
      - when: { amount_gte: 1, amount_lte: 5000 }
        decision: approve
      - decision: deny
`;
export const SUPPORT_MANIFEST = `  - mcp: { server: support, tool: issue_credit }   # a tool of an MCP server
    action: support.issue_credit
`;
