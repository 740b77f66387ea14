// SystemInfoController's version info, and DeviceConnectivityController's publish commands for dhi's
// own listeners (DeviceConnectivityServiceImpl, DeviceConnectivityUtil): HTTP always, HTTPS when its
// listener is on; MQTT and CoAP are absent, as in a ThingsBoard with those transports off.
import type { FastifyRequest } from 'fastify';
import { deviceOr404 } from './entities.js';
import type { ServerContext } from '../context.js';
import type { Handlers } from '../handler.js';
import type { DeviceRecord } from '../store/types.js';

/** The ThingsBoard REST API dhi follows (SystemInfoController answers its build's version). */
export const THINGSBOARD_VERSION = '4.4.0';
/** DeviceConnectivityUtil.JSON_EXAMPLE_PAYLOAD and CHECK_DOCUMENTATION. */
const EXAMPLE_PAYLOAD = '"{temperature:25}"';
const CHECK_DOCUMENTATION = 'Check documentation';
const DEFAULT_PORTS: Record<string, number> = { http: 80, https: 443 };
// StringUtils.CONTROL_CHARS: U+0000-U+001F and U+007F.
// eslint-disable-next-line no-control-regex
const CONTROL_CHARS = /[\x00-\x1F\x7F]/g;

/** DeviceConnectivityUtil.getHttpPublishCommand; the port left out when it is the scheme's default. */
function curlCommand(scheme: 'http' | 'https', host: string, port: number, token: string): string {
  const shownPort = port === DEFAULT_PORTS[scheme] ? '' : `:${port}`;
  return `curl -v -X POST ${scheme}://${host}${shownPort}/api/v1/${token.replace(CONTROL_CHARS, '_')}/telemetry --header Content-Type:application/json --data ${EXAMPLE_PAYLOAD}`;
}

export function systemHandlers({ config, listening, store }: ServerContext): Handlers {
  /** The commands of a device of a DEFAULT profile: the host is the request's, the ports dhi's listeners'. */
  const httpCommands = (request: FastifyRequest, device: DeviceRecord) => {
    if (device.credentialsType !== 'ACCESS_TOKEN') return undefined;
    const host = request.hostname;
    const httpsPort = listening.https ?? (config.httpsPort > 0 ? config.httpsPort : undefined);
    return {
      http: curlCommand('http', host, listening.http ?? config.port, device.token),
      ...(httpsPort !== undefined && { https: curlCommand('https', host, httpsPort, device.token) }),
    };
  };

  return {
    getSystemVersionInfo(_request, reply) {
      return reply.code(200).send({ version: THINGSBOARD_VERSION, artifact: 'dhi', name: 'dhi reference server', type: 'CE' });
    },

    getDevicePublishTelemetryCommands(request, reply) {
      const device = deviceOr404(store, request.params.deviceId);
      const transportType = store.profileById(device.profileId)?.transportType ?? 'DEFAULT';
      if (transportType === 'DEFAULT') {
        const http = httpCommands(request, device);
        return reply.code(200).send(http ? { http } : {});
      }
      // MQTT and CoAP profiles get only their own transport's commands, which are off here.
      if (transportType === 'MQTT' || transportType === 'COAP') return reply.code(200).send({});
      return reply.code(200).send({ [transportType]: CHECK_DOCUMENTATION });
    },
  };
}
