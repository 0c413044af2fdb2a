// The server's HTTP side (docs/PROTOCOL.md, "HTTP").

export class ApiError extends Error {
  constructor(code, message, status) {
    super(message);
    this.code = code;
    this.status = status;
  }
}

async function call(method, path, body, token) {
  const headers = { accept: "application/json" };
  if (body !== undefined) headers["content-type"] = "application/json";
  if (token) headers.authorization = `Bearer ${token}`;
  let response;
  try {
    response = await fetch(path, {
      method, headers, body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    throw new ApiError("network", "the server cannot be reached; check the connection", 0);
  }
  let data = null;
  try {
    data = await response.json();
  } catch {
    data = null;
  }
  if (!response.ok) {
    const err = (data && data.error) || {};
    throw new ApiError(err.code || "http", err.message || `the server answered ${response.status}`,
      response.status);
  }
  return data;
}

export const getJSON = (path, token) => call("GET", path, undefined, token);
export const postJSON = (path, body, token) => call("POST", path, body, token);
