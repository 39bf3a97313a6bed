import 'reflect-metadata';
import { Controller, Module, Post, type RawBodyRequest, Req, Res } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { Request, Response } from 'express';
import type { WebhookReceiver } from 'telephony-sdk/webhooks';

export function createApp(receiver: WebhookReceiver) {
  @Controller('webhooks')
  class WebhooksController {
    @Post()
    async receive(@Req() req: RawBodyRequest<Request>, @Res() res: Response) {
      // rawBody: true (below) keeps the exact bytes beside the parsed body.
      const { status, body } = await receiver.handle({ body: req.rawBody ?? '', headers: req.headers });
      if (body) res.type('application/json'); // a refusal's { "error": reason }
      res.status(status).end(body);
    }
  }

  @Module({ controllers: [WebhooksController] })
  class AppModule {}

  return NestFactory.create(AppModule, { rawBody: true });
}
