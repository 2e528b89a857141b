import { render } from "preact";
import { createApi } from "./api/client.ts";
import { App } from "./app/app.tsx";
import { takeToken } from "./auth/token.ts";
import "./styles.css";

const token = takeToken(window.location, window.sessionStorage, window.history);
const root = document.getElementById("app");
if (root !== null) render(<App api={token === undefined ? undefined : createApi("", token)} />, root);
