//! One JSON-RPC message per WebSocket text frame (not in the MCP spec: SEP-1288 draft).
//!
//! Offers the configured subprotocols (default `mcp`). A browser fails the handshake when the
//! server selects none of them, so a connection that closes before opening is retried once
//! without any subprotocol. Browsers cannot set `Authorization` on a WebSocket.

use crate::driver::Inner;
use client_core::session::Input;
use std::rc::Rc;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;

/// An open (or opening) socket and the callbacks that keep it alive.
pub(crate) struct Socket {
    ws: web_sys::WebSocket,
    _on_open: Closure<dyn FnMut(web_sys::Event)>,
    _on_message: Closure<dyn FnMut(web_sys::MessageEvent)>,
    _on_close: Closure<dyn FnMut(web_sys::CloseEvent)>,
}

impl Drop for Socket {
    fn drop(&mut self) {
        self.ws.set_onopen(None);
        self.ws.set_onmessage(None);
        self.ws.set_onclose(None);
        let _ = self.ws.close();
    }
}

/// Opens the socket, offering the configured subprotocols.
pub(crate) fn open(inner: &Rc<Inner>) {
    let protocols = inner.options.ws_protocols.clone();
    connect(inner, protocols);
}

fn connect(inner: &Rc<Inner>, protocols: Vec<String>) {
    let url = inner.options.url.clone();
    let list = js_sys::Array::new();
    for p in &protocols {
        list.push(&p.into());
    }
    let ws = match web_sys::WebSocket::new_with_str_sequence(&url, &list) {
        Ok(ws) => ws,
        Err(e) => {
            inner.input(Input::FramesClosed(format!(
                "cannot open a WebSocket to {url}: {}",
                crate::fetch::js_message(&e)
            )));
            return;
        }
    };
    let opened = Rc::new(std::cell::Cell::new(false));
    let weak = Rc::downgrade(inner);
    let on_open = {
        let weak = weak.clone();
        let opened = opened.clone();
        Closure::<dyn FnMut(web_sys::Event)>::new(move |_| {
            opened.set(true);
            if let Some(inner) = weak.upgrade() {
                inner.input(Input::FramesOpened);
            }
        })
    };
    let on_message = {
        let weak = weak.clone();
        Closure::<dyn FnMut(web_sys::MessageEvent)>::new(move |ev: web_sys::MessageEvent| {
            let Some(inner) = weak.upgrade() else { return };
            match ev.data().as_string() {
                Some(text) => inner.input(Input::Frame(text.as_bytes())),
                None => inner.input(Input::Frame(b"<binary frame>")),
            }
        })
    };
    let on_close = {
        let weak = weak.clone();
        let opened = opened.clone();
        Closure::<dyn FnMut(web_sys::CloseEvent)>::new(move |ev: web_sys::CloseEvent| {
            let Some(inner) = weak.upgrade() else { return };
            // This closure belongs to the socket: drop the socket only after it returns.
            let old = inner.socket.borrow_mut().take();
            wasm_bindgen_futures::spawn_local(async move { drop(old) });
            if !opened.get() && !protocols.is_empty() {
                // Maybe the server selected no subprotocol: try once without any.
                connect(&inner, Vec::new());
                return;
            }
            let why = format!(
                "WebSocket closed (code {}{})",
                ev.code(),
                if ev.reason().is_empty() {
                    String::new()
                } else {
                    format!(": {}", ev.reason())
                }
            );
            inner.input(Input::FramesClosed(why));
        })
    };
    ws.set_onopen(Some(on_open.as_ref().unchecked_ref()));
    ws.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    ws.set_onclose(Some(on_close.as_ref().unchecked_ref()));
    *inner.socket.borrow_mut() = Some(Socket {
        ws,
        _on_open: on_open,
        _on_message: on_message,
        _on_close: on_close,
    });
}

/// Sends one message as a text frame.
pub(crate) fn send(inner: &Rc<Inner>, bytes: &[u8]) {
    let text = String::from_utf8_lossy(bytes).into_owned();
    let failed = match inner.socket.borrow().as_ref() {
        Some(s) => s.ws.send_with_str(&text).is_err(),
        None => true,
    };
    if failed {
        inner.input(Input::FramesClosed("the WebSocket is not open".into()));
    }
}

/// Closes the socket.
pub(crate) fn close(inner: &Rc<Inner>) {
    inner.socket.borrow_mut().take();
}
